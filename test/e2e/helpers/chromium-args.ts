import { existsSync } from 'node:fs';

/** The whole Chromium (CHROME_PATH, else Debian's): for what only a whole browser does, and for the bench. */
export const wholeChromium = process.env.CHROME_PATH ?? '/usr/bin/chromium';

const debianHeadlessShell = '/usr/bin/chromium-headless-shell';
/**
 * The browser the e2e tests run in: Chromium's headless shell (Debian's `chromium-headless-shell`, the same engine
 * and version without the browser's own UI, which is what Playwright itself runs headless tests in). The whole
 * e2e suite, one after the other in the same hour on the 2-core machine: 1972 CPU-seconds and 16.9 min in the shell,
 * 2526 and 21.4 min in the whole browser (stop 44). CHROME_HEADLESS_SHELL names another; without one the whole
 * browser runs them. The shell has no back/forward cache, so the spec that needs it asks for `wholeChromium`.
 */
export const e2eChromium = process.env.CHROME_HEADLESS_SHELL ?? (existsSync(debianHeadlessShell) ? debianHeadlessShell : wholeChromium);

/**
 * Chromium's switches for the browser tests (playwright.config.ts).
 *
 * In the whole browser, `--headless` runs it without a screen, and each browser preloads two omnibox popups (chrome://omnibox-popup.top-chrome/, plain and "AI mode") as WebUI
 * renderers of their own. Nobody types into an address bar here, yet they draw CPU all run long: polled per process
 * over 36 tests on 3 workers, they took 21 CPU-seconds of the 148 the browsers, workers and server took (14%). With
 * both features off, Target.getTargets lists no browser_ui target, and the same 36 tests took 129–146 CPU-seconds of
 * the machine against 161–186 with them (two runs each, alternated).
 *
 * Chromium keeps only the last `--disable-features` it is given, so Playwright's own list (which it passes first) is
 * repeated here; test/unit/chromium-args.test.ts fails when a Playwright upgrade adds a name this list lacks.
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
];

/** The browser UI's own renderers that a headless test never shows. */
export const UNUSED_BROWSER_UI_FEATURES = ['WebUIOmniboxPopup', 'WebUIOmniboxAimPopup'];

export const chromiumArgs = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  `--disable-features=${[...PLAYWRIGHT_DISABLED_FEATURES, ...UNUSED_BROWSER_UI_FEATURES].join(',')}`,
  // Single sign-on tests give each client organisation an address of its own (http://<name>.sso.test:<port>).
  '--host-resolver-rules=MAP *.sso.test 127.0.0.1',
];
