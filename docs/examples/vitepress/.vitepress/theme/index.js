// VitePress: register the elements on the client only (the server render never
// imports them), and tell Vue that nl-* tags are custom elements (config.js).
import DefaultTheme from 'vitepress/theme';
// Each tag's reserved height before its figure starts, so the page does not move when it does.
import 'normlab/styles.css';

export default {
  extends: DefaultTheme,
  async enhanceApp() {
    if (!import.meta.env.SSR) {
      const { defineElements } = await import('normlab/elements');
      defineElements();
    }
  },
};
