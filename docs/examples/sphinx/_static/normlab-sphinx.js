// Defines the figures once, from the copy of the package next to this file.
// A figure reads the page's language from <html lang> and its light or dark
// theme from Furo's body[data-theme], live when the reader toggles it.
import { defineElements } from './normlab/web/elements.js';

defineElements();
