// Prism (core + Python grammar) as one ES module for <nl-code-shapes>.
// Prism is put in manual mode (it must never scan the host page), its
// grammars register on a temporary global, and any Prism the page already
// had is put back. The figure uses Prism.tokenize only: tokens, never HTML.
const previous = globalThis.Prism;
globalThis.Prism = { manual: true, disableWorkerMessageHandler: true };
const Prism = require('prismjs/components/prism-core.js');
globalThis.Prism = Prism;
require('prismjs/components/prism-python.js');
if (previous === undefined) delete globalThis.Prism;
else globalThis.Prism = previous;
module.exports = { tokenize: (code) => Prism.tokenize(code, Prism.languages.python), Token: Prism.Token };
