/**
 * The person's consent to an untrusted scenario's hook-policy checks (`run` rules): a scenario
 * from a URL or a share link must not run commands by itself, so each distinct command is asked
 * once and the answer — yes or no — holds for the rest of the session. Concurrent asks for the
 * same command share one question.
 */
export function rememberedCheckConsent(
	ask: (command: string) => Promise<boolean>
): (command: string) => Promise<boolean> {
	const answers = new Map<string, Promise<boolean>>();
	return (command) => {
		let answer = answers.get(command);
		if (!answer) {
			// A question that fails (a dialog closed by a reload) counts as a no, and is asked again.
			answer = ask(command).then(
				(allowed) => allowed === true,
				() => {
					answers.delete(command);
					return false;
				}
			);
			answers.set(command, answer);
		}
		return answer;
	};
}

/** The question, in words: what runs, why it asks, what it can and cannot do. */
export function checkConsentQuestion(
	command: string,
	source: string
): {
	title: string;
	message: string;
	confirmLabel: string;
} {
	return {
		title: "Run this scenario's check?",
		message:
			`This scenario came from ${source}, so the checks its hook policy runs after the agent's ` +
			`changes ask first. It wants to run:\n\n${command}\n\nThe check runs in the sandbox and ` +
			'cannot change your files. If you say no, the agent is told the check did not run. ' +
			'Your answer holds for this command until you reload.',
		confirmLabel: 'Run the check'
	};
}
