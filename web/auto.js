// normlab/auto — defines every normlab element on import, for plain pages:
//   <script type="module" src="…/normlab/web/auto.js"></script>
import { defineElements } from './elements.js';

defineElements();
