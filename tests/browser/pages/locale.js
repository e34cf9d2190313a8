// A site in a language normlab does not ship: it registers its own catalog
// (here a partial French one; missing keys fall back to English) after the
// elements are defined, and the figures switch to it.
import { defineElements, registerLocale } from '../../../web/elements.js';

defineElements();
window.registerFrench = () =>
  registerLocale('fr', {
    common: { loading: 'Chargement du noyau de calcul…' },
    residualTurn: { name: 'Virage résiduel : la même mise à jour tourne moins un grand état' },
  });
