/**
 * Chromium honours only the last `--disable-features` switch on its command line, and the switches
 * BrowserMesh adds come after Playwright's own: so the one switch BrowserMesh passes carries
 * Playwright's list (playwright-core's `chromiumSwitches`, checked against the installed version by
 * chromium-features.test.ts) and then ours.
 */
export const PLAYWRIGHT_DISABLED_FEATURES = [
  'AvoidUnnecessaryBeforeUnloadCheckSync',
  'DestroyProfileOnBrowserClose',
  'HttpsUpgrades',
  'HttpsFirstBalancedModeAutoEnable',
  'LensOverlay',
  'MediaRouter',
  'PaintHolding',
  'ThirdPartyStoragePartitioning',
  'AvoidCorsURLLoaderRestartOnRedirect',
  'TcpPortRandomizationWin',
  'OptimizationHints',
  'NetworkTimeServiceQuerying',
  'AimEnabled',
  'PreconnectToSearch',
  'msForceBrowserSignIn',
  'msEdgeUpdateLaunchServicesPreferredVersion',
] as const;

/**
 * Every browser window (one per session's context) otherwise starts two WebUI renderers for the
 * omnibox popup, which no automated session ever opens: about half of Chromium's CPU for a new
 * session (measured: a launch and 11 contexts took 4.1 CPU-s with them, 2.1 without). A headed
 * window falls back to the native popup.
 */
export const OMNIBOX_WEBUI_FEATURES = ['WebUIOmniboxPopup', 'WebUIOmniboxAimPopup'] as const;

export const DISABLE_FEATURES_SWITCH = `--disable-features=${[
  ...PLAYWRIGHT_DISABLED_FEATURES,
  ...OMNIBOX_WEBUI_FEATURES,
].join(',')}`;
