// The training module in a Web Worker (built into dist/normlab-worker.js, one classic script): the page
// posts the compiled module once, then op calls; each call goes through the same Core.run as on the main
// thread and its outputs come back as transferred arrays. Started by trainerWorker() (normlab.js).
import createNormlabCore from '../../dist/normlab-core.mjs';
import { Core, NormlabError } from './normlab.js';

let core = null;
const fail = (id, e) =>
  self.postMessage({
    id,
    error: {
      message: String(e?.message ?? e),
      code: e instanceof NormlabError ? e.code : 'invalid',
      argument: e?.argument ?? '',
      op: e?.op ?? '',
    },
  });

self.onmessage = async ({ data }) => {
  if (data.module) {
    try {
      const m = await createNormlabCore({
        locateFile: () => 'worker.wasm',
        instantiateWasm(imports, receive) {
          WebAssembly.instantiate(data.module, imports).then((instance) => receive(instance, data.module));
          return {};
        },
      });
      core = new Core(m);
      self.postMessage({ ready: true });
    } catch (e) {
      fail(0, e);
    }
    return;
  }
  const { id, op, inputs, attrs } = data;
  try {
    const out = core.run(op, inputs, attrs);
    const result = {},
      moved = [];
    for (const [name, t] of Object.entries(out)) {
      const copy = Float32Array.from(t.data);
      result[name] = { shape: t.shape, data: copy };
      moved.push(copy.buffer);
    }
    self.postMessage({ id, result }, moved);
  } catch (e) {
    fail(id, e);
  }
};
