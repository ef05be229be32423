import { attestCommand } from './attest-command.js';
import { checkCommand } from './check-command.js';
import { classCommand } from './class-command.js';
import { importCommand } from './import-command.js';
import { otelCommand } from './otel-command.js';
import { policyCommand } from './policy-command.js';
import { replayCommand } from './replay-command.js';
import { reportCommand } from './report-command.js';
import { transcriptCommand } from './transcript-command.js';
import { UsageError } from './usage-error.js';
import { validateCommand } from './validate-command.js';
import { verifyCommand } from './verify-command.js';

export const usage = `threadline — replay, verify and report on governed agent sessions

Usage:
  threadline replay <script.yaml|json> --workspace <dir> [--approve all|none] [--policy always|destructive|never]
      Run a scripted agent session through the real hook pipeline and the local sandbox;
      writes <dir>/.orchestration/. Prints one JSON line per tool call. Exit 0 when the script ran.
  threadline verify <dir|zip> [--json | --format text|json|sarif]
      Check the ledger's hash chains, the Agent Trace records and the files' content hashes.
      Exit 0 when everything holds, 1 naming the first failing record. SARIF 2.1.0 for code scanning.
      --attestation <file> --witness-key <PEM file|base64>  check a signed attestation of this export
      --witness-key <base64|url>  also check the class server's signed receipts in the ledger
      --witness <url> --token <instructor token> [--ledger <id>]  also compare with the server's copy
  threadline class init
      Print a new class code and instructor token for class mode (npm start).
  threadline report <dir|zip> [--format md|csv|json|sarif] [--rubric <scenario.yaml|folder|folder of scenarios>]
      Per intent: files, lines, refactor vs evolution, blocked calls, approvals, lessons, and
      the acceptance criteria as complete_intent recorded them (threadline check re-runs them).
      With rubrics (each scores only exports of its own scenario): scenario, score,
      max_score and score_note columns.
      A folder of several exports gives one CSV row each.
  threadline check <dir|zip> [--intent ID] [--json | --format text|json|junit] [--timeout seconds]
                   [--deadline seconds] [--max-write-mb MB] [--sandbox-memory-mb MB]
      Re-run the acceptance criteria recorded in the export's active_intents.yaml on its
      workspace, in the offline sandbox (a copy in memory: nothing is written back).
      Bounded: --timeout per criterion (120), --deadline for all of them (600; the rest are
      reported as not run), --max-write-mb per command (64), --sandbox-memory-mb for the
      sandbox thread's heap (256); at most 100 criteria per export.
      Exit 0 when every runnable criterion passes, 1 naming the ones that fail or did not run.
  threadline attest <dir|zip> --key <ed25519.pem> [--check]
      An in-toto Statement v1 in a DSSE envelope (one JSON line): the chained files by SHA-256,
      the chains' heads and receipts; --check adds a Test Result statement (a second line).
  threadline import tutorialkit <folder> --out <scenario-dir>
  threadline import classroom <autograding.json> --out <scenario-dir> [--id id] [--title text]
      A scenario from a TutorialKit lesson/tutorial or GitHub Classroom tests; lists what
      could not be carried.
  threadline policy import claude <settings.json>     prints hooks.yaml
  threadline policy export claude <hooks.yaml>        prints Claude Code settings JSON
  threadline transcript <dir|zip> [--format md|json]
      The conversation (learner, model, tool calls as sent, results as received) with hook
      decisions, approvals and changes interleaved in order, after verifying the export.
      Each change names the learner message and model text before it. Exit 1 if it does not verify.
  threadline otel <dir|zip> [--out file.json]
      The session as OTLP/JSON traces (GenAI semantic conventions: a span per tool call, hook
      decisions as guardrail events). Opt-in, sends nothing. Refuses an export that does not verify.
  threadline validate <active_intents.yaml | scenario folder | folder of scenarios>
      Exit 0, or the errors as file:line:column message (exit 1).

Exit codes: 0 ok, 1 check failed, 2 bad arguments or unreadable input.`;

type Output = { out: (text: string) => void; err: (text: string) => void };

const defaultOutput: Output = {
	out: (text) => process.stdout.write(`${text}\n`),
	err: (text) => process.stderr.write(`${text}\n`)
};

export async function main(argv: string[], output: Output = defaultOutput): Promise<number> {
	const [command, ...rest] = argv;
	try {
		switch (command) {
			case 'replay':
				return await replayCommand(rest, output);
			case 'verify':
				return await verifyCommand(rest, output);
			case 'report':
				return await reportCommand(rest, output);
			case 'validate':
				return await validateCommand(rest, output);
			case 'check':
				return await checkCommand(rest, output);
			case 'class':
				return classCommand(rest, output);
			case 'attest':
				return await attestCommand(rest, output);
			case 'import':
				return await importCommand(rest, output);
			case 'policy':
				return await policyCommand(rest, output);
			case 'transcript':
				return await transcriptCommand(rest, output);
			case 'otel':
				return await otelCommand(rest, output);
			case undefined:
			case '-h':
			case '--help':
			case 'help':
				output.out(usage);
				return command === undefined ? 2 : 0;
			default:
				throw new UsageError(`unknown command "${command}"`);
		}
	} catch (error) {
		if (error instanceof UsageError) {
			output.err(`threadline: ${error.message}`);
			output.err('Run `threadline --help` for usage.');
			return 2;
		}
		// Hostile or broken input must never end in a stack trace: say what failed, exit 2.
		const code = (error as NodeJS.ErrnoException | null)?.code;
		const message = error instanceof Error ? error.message : String(error);
		output.err(
			`threadline: ${command} failed: ${code && !message.includes(code) ? `${code}: ` : ''}${message}`
		);
		return 2;
	}
}
