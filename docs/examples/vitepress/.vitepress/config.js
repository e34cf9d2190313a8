// VitePress config: nl-* tags are custom elements, not Vue components.
export default {
  vue: {
    template: { compilerOptions: { isCustomElement: (tag) => tag.startsWith('nl-') } },
  },
};
