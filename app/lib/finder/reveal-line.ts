import { loadedMonaco } from '../editor/monaco-instance.js';
import { modelPathForFile } from '../editor/model-uri.js';

/**
 * Puts the cursor of the editor inside `container` at `line`:`column` once it shows `path` (the
 * tab switch and, the first time, Monaco itself load after the file was opened): tried on each
 * animation frame for a few seconds. Resolves whether it got there.
 */
export function revealLineWhenShown(
	container: () => Element | null,
	path: string,
	position: { line: number; column: number },
	maximumFrames = 600
): Promise<boolean> {
	const wanted = modelPathForFile(path);
	return new Promise((resolve) => {
		let frames = 0;
		const attempt = () => {
			const host = container();
			const editor = loadedMonaco()
				?.editor.getEditors()
				.find(
					(candidate) =>
						host?.contains(candidate.getContainerDomNode()) &&
						candidate.getModel()?.uri.path === wanted
				);
			if (editor) {
				const target = { lineNumber: position.line, column: position.column };
				editor.setPosition(target);
				editor.revealPositionInCenter(target);
				editor.focus();
				resolve(true);
			} else if (++frames < maximumFrames) requestAnimationFrame(attempt);
			else resolve(false);
		};
		attempt();
	});
}
