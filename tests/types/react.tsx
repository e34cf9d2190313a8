// Figures in React 19 JSX under strict TypeScript: the intrinsic element types of normlab/react
// accept the figures' attributes and reject wrong ones (the @ts-expect-error lines).
import type {} from 'normlab/react';
import 'normlab/define/nl-bar-compare';
import { NlAxisCube } from 'normlab/define/nl-axis-cube';
import { defineElements } from 'normlab/elements';

defineElements(['nl-bar-compare', 'nl-axis-cube']);
// @ts-expect-error: not a figure
defineElements(['nl-nope']);
export const cubeClass: typeof NlAxisCube = NlAxisCube;

export function Page() {
  return (
    <main>
      <nl-bar-compare vector="1,2,3" scale={2} eps="1e-5" lang="zh" theme="dark" className="wide" />
      <nl-bar-compare vector={[1, 2, 3, 4]} />
      <nl-axis-cube method="group_norm" num-groups={2} shape="3,4,6" />
      {/* @ts-expect-error: not one of the methods */}
      <nl-axis-cube method="weight_norm" />
      {/* @ts-expect-error: not an attribute of the figure */}
      <nl-softmax-sharpness colour="red" />
      {/* @ts-expect-error: theme is light, dark or auto */}
      <nl-spectral theme="sepia" />
    </main>
  );
}
