/** Saves text as a file: nothing leaves the browser but to the grader's own disk. */
export function downloadText(name: string, text: string, type: string): void {
	const url = URL.createObjectURL(new Blob([text], { type }));
	const link = document.createElement('a');
	link.href = url;
	link.download = name;
	document.body.append(link);
	link.click();
	link.remove();
	URL.revokeObjectURL(url);
}
