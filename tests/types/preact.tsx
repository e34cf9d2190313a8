/** @jsxImportSource preact */
// Figures in Preact 10 JSX under strict TypeScript (the pragma above is `"jsxImportSource": "preact"`): the
// intrinsic element types of normlab/preact accept the figures' attributes and reject wrong ones.
import type {} from 'normlab/preact';
import 'normlab/define/nl-bar-compare';

export function Page() {
  return (
    <main>
      <nl-bar-compare vector="1,2,3" scale={2} eps="1e-5" lang="zh" theme="dark" class="wide" />
      <nl-bar-compare vector={[1, 2, 3, 4]} onChange={(e) => e.currentTarget.vector} />
      <nl-axis-cube method="group_norm" num-groups={2} shape="3,4,6" />
      <nl-code-shapes selected="ln-var" d-c={4} sizes="B=2,T=5" />
      {/* @ts-expect-error: not one of the methods */}
      <nl-axis-cube method="weight_norm" />
      {/* @ts-expect-error: a vector is its text or an array of numbers */}
      <nl-bar-compare vector={{ x: 1 }} />
      {/* @ts-expect-error: not an attribute of the figure */}
      <nl-softmax-sharpness colour="red" />
      {/* @ts-expect-error: theme is light, dark or auto */}
      <nl-spectral theme="sepia" />
    </main>
  );
}
