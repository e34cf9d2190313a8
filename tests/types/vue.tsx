// Figures in Vue 3's JSX under strict TypeScript, compiled as Vue's guide sets TSX up (tsconfig.vue.json:
// `"jsx": "preserve"`, `"jsxImportSource": "vue"`): normlab/vue
// types the figures' attributes in IntrinsicElementAttributes, and in GlobalComponents for templates, checked
// here through the $props vue-tsc reads.
import type { GlobalComponents } from 'vue';
import type {} from 'normlab/vue';
import 'normlab/define/nl-axis-cube';

export function Page() {
  return (
    <main>
      <nl-bar-compare vector="1,2,3" scale={2} eps="1e-5" lang="zh" theme="dark" class="wide" />
      <nl-bar-compare vector={[1, 2, 3, 4]} onChange={(e: Event) => e.type} />
      <nl-axis-cube method="group_norm" num-groups={2} shape="3,4,6" />
      {/* @ts-expect-error: not one of the methods */}
      <nl-axis-cube method="weight_norm" />
      {/* @ts-expect-error: a number is its text or a number */}
      <nl-bar-compare scale={[2]} />
      {/* @ts-expect-error: not an attribute of the figure */}
      <nl-softmax-sharpness colour="red" />
      {/* @ts-expect-error: theme is light, dark or auto */}
      <nl-spectral theme="sepia" />
    </main>
  );
}

// <nl-axis-cube method="group_norm" :num-groups="2" /> in a template: vue-tsc camelizes the name and checks it
// against $props (Page.vue is such a template, checked by vue-tsc itself).
type CubeProps = InstanceType<GlobalComponents['nl-axis-cube']>['$props'];
export const inTemplate: CubeProps = { method: 'group_norm', numGroups: 2, theme: 'dark', class: 'wide' };
// @ts-expect-error: not one of the methods
export const wrongMethod: CubeProps = { method: 'weight_norm' };
// @ts-expect-error: not an attribute of the figure
export const unknownAttr: InstanceType<GlobalComponents['nl-softmax-sharpness']>['$props'] = { colour: 'red' };
