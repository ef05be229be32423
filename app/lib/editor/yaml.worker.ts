/**
 * The YAML language worker, entered through our own file rather than
 * `monaco-yaml/yaml.worker?worker` directly: from app code, Vite's dev server pre-bundles the worker
 * with its CommonJS dependencies (path-browserify, @vscode/l10n), which it otherwise serves raw
 * ("module is not defined"); monaco-yaml's FAQ recommends the same for Vite.
 */
import 'monaco-yaml/yaml.worker.js';
