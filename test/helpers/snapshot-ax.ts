import type {
  AXNodeLike,
  DomFacts,
  FrameCapture,
  PageCapture,
  TargetCapture,
} from '../../src/snapshot/types.js';

/**
 * Builders for hand-made accessibility trees in unit tests:
 * ax('button', 'Save', [], { backendId: 7, props: { focused: true } }).
 */
export interface AxSpec {
  role: string;
  name?: string;
  value?: string | number;
  children?: AxSpec[];
  backendId?: number;
  props?: Record<string, unknown>;
  ignored?: string;
}

export function ax(
  role: string,
  name = '',
  children: AxSpec[] = [],
  extra: Omit<AxSpec, 'role' | 'name' | 'children'> = {},
): AxSpec {
  return { role, name, children, ...extra };
}

let nextBackendId = 1000;

export function toNodes(root: AxSpec): AXNodeLike[] {
  const nodes: AXNodeLike[] = [];
  let id = 0;
  const visit = (spec: AxSpec, parentId: string | undefined): string => {
    const nodeId = String(++id);
    const node: AXNodeLike = {
      nodeId,
      ignored: spec.ignored !== undefined,
      role: { type: 'role', value: spec.role },
      name: { type: 'computedString', value: spec.name ?? '' },
      backendDOMNodeId: spec.backendId ?? nextBackendId++,
      properties: Object.entries(spec.props ?? {}).map(([name, value]) => ({
        name,
        value: { type: 'generic', value },
      })),
    };
    if (parentId !== undefined) node.parentId = parentId;
    if (spec.ignored !== undefined) node.ignoredReasons = [{ name: spec.ignored }];
    if (spec.value !== undefined) node.value = { type: 'string', value: spec.value };
    nodes.push(node);
    node.childIds = (spec.children ?? []).map((child) => visit(child, nodeId));
    return nodeId;
  };
  visit(root, undefined);
  return nodes;
}

/** A one-frame page capture of `root` (a RootWebArea spec), with optional DOM facts by backend id. */
export function pageOf(
  root: AxSpec,
  dom: Record<number, Partial<DomFacts>> = {},
  title = root.name ?? '',
): PageCapture {
  const frame: FrameCapture = { frameId: 'F1', loaderId: 'L1', nodes: toNodes(root) };
  const facts = new Map<number, DomFacts>();
  for (const [id, partial] of Object.entries(dom))
    facts.set(Number(id), { clickable: false, tabbable: false, inline: false, ...partial });
  const target: TargetCapture = {
    key: 'main',
    rootFrameId: 'F1',
    frames: [frame],
    dom: facts,
    localChildFrames: new Map(),
    remoteChildTargets: new Map(),
  };
  return {
    targets: new Map([['main', target]]),
    mainLoaderId: 'L1',
    title,
    hiddenCount: 0,
    uncapturedFrames: 0,
  };
}
