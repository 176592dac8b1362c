/** The frames of the fixture site's /reallibs/frames page, each as the chain of iframe selectors to it. */
export const FRAMES: Array<[string, string[]]> = [
  ['same-origin', ['iframe[title="Same origin"]']],
  ['cross-origin', ['iframe[title="Cross origin"]']],
  ['nested', ['iframe[title="Nested"]', 'iframe[title="Inner cross origin"]']],
];

/** A frame-chained locator's `frame` part from a chain of iframe selectors. */
export const frame = (chain: string[]): { kind: 'iframe'; chain: Array<{ css: string }> } => ({
  kind: 'iframe',
  chain: chain.map((css) => ({ css })),
});
