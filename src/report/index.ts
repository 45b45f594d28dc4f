/** The reports a reviewer reads, all rendered from one model ({@link buildReport}): pure, written last. */
export * from './model.js';
export { renderJUnit, writeJUnit } from './junit.js';
export { renderSummary, writeSummary, DEFAULT_SUMMARY_MAX_BYTES, type SummaryOptions } from './summary.js';
export {
  renderAnnotations,
  emitAnnotations,
  MAX_ANNOTATIONS_PER_LEVEL,
  MAX_ANNOTATION_MESSAGE,
  type Annotation,
  type AnnotationLevel,
} from './annotations.js';
export { renderResultsJson, writeResultsJson, RESULTS_JSON_VERSION } from './results-json.js';
export {
  renderPullRequestComment,
  upsertPullRequestComment,
  commentMarker,
  type PullRequestCommentOptions,
  type UpsertCommentOptions,
} from './pr-comment.js';
