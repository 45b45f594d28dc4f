/**
 * Status badge images (docs/api-contract.md, "States and transitions": status badge states, and "Status badge
 * endpoints"). A badge is a flat, shields-style SVG: a grey label on the left and a coloured message on the
 * right. States: passing, partially failing (suites only: some tests failed), failing, running, unknown (no
 * previous execution, or the last one was cancelled), and, with `screenshot` given, the screenshot
 * comparison passing or failing. A module (a test marked `importOnly`) shows "Import Only", the status the
 * service shows for it (emulator/DEVIATIONS.md).
 */
import { IMPORT_ONLY_STATUS } from '../modules.js';

/** Every badge state. The two `screenshot-compare-*` states answer the `screenshot` form of the endpoints. */
export const BADGE_STATES = [
  'passing',
  'partially-failing',
  'failing',
  'running',
  'unknown',
  'screenshot-compare-passing',
  'screenshot-compare-failing',
  'import-only',
] as const;
export type BadgeState = (typeof BADGE_STATES)[number];

/** Media type of `badgeSvg` output. */
export const BADGE_CONTENT_TYPE = 'image/svg+xml';

interface BadgeLook {
  label: string;
  message: string;
  color: string;
}

const LOOKS: Record<BadgeState, BadgeLook> = {
  passing: { label: 'ghost inspector', message: 'passing', color: '#4c1' },
  'partially-failing': { label: 'ghost inspector', message: 'partially failing', color: '#fe7d37' },
  failing: { label: 'ghost inspector', message: 'failing', color: '#e05d44' },
  running: { label: 'ghost inspector', message: 'running', color: '#007ec6' },
  unknown: { label: 'ghost inspector', message: 'unknown', color: '#9f9f9f' },
  'screenshot-compare-passing': { label: 'screenshot', message: 'passing', color: '#4c1' },
  'screenshot-compare-failing': { label: 'screenshot', message: 'failing', color: '#e05d44' },
  'import-only': { label: 'ghost inspector', message: IMPORT_ONLY_STATUS, color: '#9f9f9f' },
};

/** The label and message a state shows (e.g. `{label: 'screenshot', message: 'failing'}`). */
export function badgeText(state: BadgeState): { label: string; message: string } {
  const look = LOOKS[state];
  return { label: look.label, message: look.message };
}

/** Approximate width in px of `text` in 11px Verdana (the shields look), from character classes. */
function textWidth(text: string): number {
  let width = 0;
  for (const ch of text) {
    if ("iljI.,:;!|'".includes(ch)) width += 3.5;
    else if ('ftr -()[]'.includes(ch)) width += 4.6;
    else if ('mwMW'.includes(ch)) width += 10.5;
    else if (ch >= 'A' && ch <= 'Z') width += 7.5;
    else width += 6.8;
  }
  return Math.ceil(width);
}

function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/**
 * A well-formed SVG badge for `state` (20 px high; width from the text). Throws an Error for an unknown
 * state.
 */
export function badgeSvg(state: BadgeState): string {
  const look = LOOKS[state];
  if (!look)
    throw new Error(`Unknown badge state "${String(state)}"; expected one of ${BADGE_STATES.join(', ')}`);
  const label = escapeXml(look.label);
  const message = escapeXml(look.message);
  const lw = textWidth(look.label) + 10;
  const mw = textWidth(look.message) + 10;
  const w = lw + mw;
  const title = `${label}: ${message}`;
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="20" role="img" aria-label="${title}">`,
    `<title>${title}</title>`,
    '<linearGradient id="s" x2="0" y2="100%"><stop offset="0" stop-color="#bbb" stop-opacity=".1"/><stop offset="1" stop-opacity=".1"/></linearGradient>',
    `<clipPath id="r"><rect width="${w}" height="20" rx="3" fill="#fff"/></clipPath>`,
    '<g clip-path="url(#r)">',
    `<rect width="${lw}" height="20" fill="#555"/>`,
    `<rect x="${lw}" width="${mw}" height="20" fill="${look.color}"/>`,
    `<rect width="${w}" height="20" fill="url(#s)"/>`,
    '</g>',
    '<g fill="#fff" text-anchor="middle" font-family="Verdana,Geneva,DejaVu Sans,sans-serif" font-size="11">',
    `<text x="${lw / 2}" y="15" fill="#010101" fill-opacity=".3">${label}</text>`,
    `<text x="${lw / 2}" y="14">${label}</text>`,
    `<text x="${lw + mw / 2}" y="15" fill="#010101" fill-opacity=".3">${message}</text>`,
    `<text x="${lw + mw / 2}" y="14">${message}</text>`,
    '</g>',
    '</svg>',
  ].join('');
}
