// single.html?tag=nl-axis-cube — a page holding one figure alone.
import '../../../web/auto.js';

const tag = new URLSearchParams(location.search).get('tag') ?? 'nl-bar-compare';
document.querySelector('main').append(document.createElement(tag));
