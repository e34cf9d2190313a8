// Docusaurus: define the normlab figures once, in the browser, as a client module.
// In docusaurus.config.js:   clientModules: [require.resolve('./src/normlab.client.js')],
// then write the tags straight into MDX:   <nl-bar-compare vector="1,2,3"></nl-bar-compare>
// The server-rendered HTML holds the tags themselves (with their reserved height from styles.css), not a
// placeholder; the browser upgrades them here and on every client-side navigation, with no effect or wrapper.
import ExecutionEnvironment from '@docusaurus/ExecutionEnvironment';
import 'normlab/styles.css';

if (ExecutionEnvironment.canUseDOM) {
  // Only the figures the site uses: each entry defines its figure on import. `import('normlab/elements')` and
  // `defineElements()` would define them all.
  import('normlab/define/nl-bar-compare');
  import('normlab/define/nl-axis-cube');
  import('normlab/define/nl-transformer-training');
}
