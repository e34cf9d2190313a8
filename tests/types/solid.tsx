/** @jsxImportSource solid-js */
// Figures in Solid JSX under strict TypeScript (the pragma above is `"jsxImportSource": "solid-js"`): the
// intrinsic element types of normlab/solid accept the figures' props and reject wrong ones. Solid sets a plain
// prop on a custom element as the camel-cased property, so where that is not the figure's property the
// attribute is written `attr:`.
import type {} from 'normlab/solid';
import 'normlab/define/nl-axis-cube';

export function Page() {
  return (
    <main>
      <nl-bar-compare vector="1,2,3" scale={2} eps="1e-5" lang="zh" attr:theme="dark" class="wide" />
      <nl-bar-compare vector={[1, 2, 3, 4]} on:change={(e) => e.type} />
      <nl-axis-cube method="group_norm" num-groups={2} shape={[3, 4, 6]} />
      <nl-code-shapes selected="ln-var" attr:b={2} attr:d-c={4} attr:sizes="B=2,T=5" />
      {/* @ts-expect-error: not one of the methods */}
      <nl-axis-cube method="weight_norm" />
      {/* @ts-expect-error: a number is its text or a number */}
      <nl-axis-cube num-groups={[2]} />
      {/* @ts-expect-error: not an attribute of the figure */}
      <nl-softmax-sharpness colour="red" />
      {/* @ts-expect-error: theme has no property; Solid would set el.theme and nothing would change */}
      <nl-spectral theme="dark" />
      {/* @ts-expect-error: nl-code-shapes' b is the property B; Solid would set el.b */}
      <nl-code-shapes b={2} />
      {/* @ts-expect-error: theme is light, dark or auto */}
      <nl-spectral attr:theme="sepia" />
    </main>
  );
}
