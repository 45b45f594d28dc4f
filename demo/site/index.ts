/**
 * The demo site: a small static shop (sign-in form, products, cart) that the emulator serves (for example
 * under `/demo/`) and that the demo suites (`suites.ts`) test with the browser executor.
 *
 * It holds one deliberate bug: the cart total ignores the quantity of the second cart line. And one visual
 * change: `?theme=new` on any page turns the header pink, thickens the card borders and adds a promo banner,
 * which a screenshot comparison against a baseline taken without it catches.
 */
import { fileURLToPath } from 'node:url';

/** Absolute path of the folder holding the demo site's files (computed from this module's URL). */
export const demoSiteDir: string = fileURLToPath(new URL('.', import.meta.url)).replace(/[\\/]$/, '');

/** The files of the demo site that are meant to be served, with their media types. */
export const DEMO_SITE_FILES: Readonly<Record<string, string>> = {
  'index.html': 'text/html; charset=utf-8',
  'products.html': 'text/html; charset=utf-8',
  'cart.html': 'text/html; charset=utf-8',
  'shop.js': 'text/javascript; charset=utf-8',
  'style.css': 'text/css; charset=utf-8',
};
