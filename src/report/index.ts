/** The reports a reviewer reads, all rendered from one model ({@link buildReport}): pure, written last. */
export * from './model.js';
