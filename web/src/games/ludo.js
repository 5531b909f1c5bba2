// @ts-check
/** Classic Ludo in the browser: drawn and played as Luddo (games/luddo.js), on the same boards. */
export { default } from './luddo.js';
