/**
 * Shapes shared by the snapshot pipeline (capture → build → render → budget). The CDP shapes are the
 * subsets this layer reads; Playwright's typed `CDPSession.send` results are assignable to them, and
 * unit tests can build them by hand.
 */

export interface AXValueLike {
  type: string;
  value?: unknown;
}

export interface AXNodeLike {
  nodeId: string;
  parentId?: string;
  ignored: boolean;
  ignoredReasons?: Array<{ name: string }>;
  role?: AXValueLike;
  name?: AXValueLike;
  value?: AXValueLike;
  properties?: Array<{ name: string; value: AXValueLike }>;
  childIds?: string[];
  backendDOMNodeId?: number;
}

/** What the DOM knows about an element that the accessibility tree does not. */
export interface DomFacts {
  /** Has a click listener, an onclick attribute, or is where `cursor: pointer` starts. */
  clickable: boolean;
  /** Something to drag: `draggable=true`, an `ondragstart` attribute, or where `cursor: grab` / `move` starts. */
  draggable?: true;
  /** Marked as a drop target: `ondrop` / `ondragover` / `ondragenter` attribute, `aria-dropeffect`. */
  dropTarget?: true;
  /** The root of a contenteditable region (an editor such as Quill's or TinyMCE's): typed into as a textbox. */
  editable?: true;
  /** An `<a>` element (with or without href): inside a grid cell it is an item of its own (an event chip). */
  anchor?: true;
  /** `tabindex` >= 0 on an element without an interactive role. */
  tabbable: boolean;
  /** Laid out as inline content (text next to it runs on in the same line). */
  inline: boolean;
  /** Lower-cased `type` attribute of an input. */
  inputType?: string;
  /** Lower-cased `autocomplete` attribute. */
  autocomplete?: string;
  /** Border box in the frame document's coordinates (CSS px). */
  bounds?: Box;
  /** ARIA attributes Chromium's accessibility tree does not report: order and state of grids, current item. */
  aria?: AriaFacts;
  /** Iframes only: where the content starts inside the border box (only when DOM rects were captured). */
  contentOffset?: [number, number];
}

export interface AriaFacts {
  /** aria-current other than false ('true', 'page', 'step', …). */
  current?: string;
  /** aria-sort other than none. */
  sort?: string;
  rowIndex?: number;
  rowCount?: number;
  busy?: true;
  /** aria-valuetext, whitespace collapsed, at most 40 characters. */
  valueText?: string;
}

export type Box = [x: number, y: number, width: number, height: number];

/** One document captured in one CDP target (the page or an out-of-process iframe). */
export interface FrameCapture {
  frameId: string;
  loaderId: string;
  nodes: AXNodeLike[];
  /** Where this document's origin lies in the top document (CSS px); only when boxes were asked for. */
  origin?: { x: number; y: number };
}

/** Everything captured from one CDP target. */
export interface TargetCapture {
  /** 'main' for the page's own target, else the out-of-process iframe's frame id. */
  key: string;
  rootFrameId: string;
  frames: FrameCapture[];
  dom: Map<number, DomFacts>;
  /** Iframe element (backend node id, this target) → child frame id in this same target. */
  localChildFrames: Map<number, string>;
  /** Iframe element (backend node id, this target) → key of the out-of-process target it hosts. */
  remoteChildTargets: Map<number, string>;
}

export interface PageCapture {
  targets: Map<string, TargetCapture>;
  mainLoaderId: string;
  title: string;
  /** Counts of content left out on purpose, found while capturing. */
  hiddenCount: number;
  /** Iframes whose content could not be captured (detached while capturing, crashed renderer). */
  uncapturedFrames: number;
}

/** One element of the pruned tree, ready to render. Text runs are nodes with role 'text'. */
export interface SnapNode {
  role: string;
  name: string;
  /** 'e12' — rendered as @e12. */
  ref?: string;
  /** Rendered state flags in order, e.g. ['checked'], ['level=2']. */
  states: string[];
  /** Display value, already redacted; `secret` renders as value=••••. */
  value?: string | number | { secret: true };
  url?: string;
  box?: Box;
  interactive: boolean;
  /** Laid out inline (a link in a sentence): it can share a line with the text around it. */
  inline?: boolean;
  /** Continues the previous sibling's line of running text (no block boundary between them). */
  glue?: boolean;
  /** `${targetKey}|${backendNodeId}` of elements with a ref, to find a scope again. */
  key?: string;
  children: SnapNode[];
}

/** Options that shape the rendered text (the capture is the same for all of them). */
export interface RenderOptions {
  interactiveOnly: boolean;
  /** With interactiveOnly: also a few short text lines (headings, messages), as an action's snapshot. */
  textLines?: boolean;
  maxDepth: number | null;
  maxChildren: number | null;
  includeBoundingBoxes: boolean;
  includeUrls: boolean;
  /** Refs written at most, interactive elements first (null: all). */
  maxRefs?: number | null;
  /** Page URL, so same-origin link URLs can be written as paths. */
  pageUrl: string;
}

export interface OmittedCounts {
  ariaHidden: number;
  hidden: number;
  maxDepth: number;
  maxChildren: number;
  frames: number;
  longText: number;
  /** Refs left out by maxRefs / includeRefs: false. */
  refs?: number;
}

export interface LimitsApplied {
  maxChars: number;
  maxBytes: number;
  maxDepth?: number;
  maxChildren?: number;
  interactiveOnly?: boolean;
  scope?: string;
  maxRefs?: number;
}
