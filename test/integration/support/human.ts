/**
 * The person of browser_request_human tests: a login form at fixed places on the held page, and a
 * real Chromium that opens the take-over link, signs in on the live image and presses "Hand back".
 */
import type { Browser, Page } from 'playwright-core';

export const PASSWORD = 'Pw-typed-by-person-7781';
export const USER = 'person-user-name';

/** A login form at fixed places (the person clicks them on the live image), then a signed-in page. */
export const LOGIN = `<!doctype html><title>Sign in</title>
<style>input,button{position:fixed;left:20px;width:400px;height:40px;font-size:20px}</style>
<form id="f"><input id="user" aria-label="User" style="top:20px" />
<input id="pass" type="password" aria-label="Password" style="top:80px" />
<button style="top:140px">Sign in</button></form>
<script>document.getElementById('f').addEventListener('submit', (e) => {
  e.preventDefault();
  if (document.getElementById('pass').value !== '${PASSWORD}') return;
  document.title = 'Home';
  document.body.innerHTML = '<h1>Signed in</h1>';
});</script>`;

/** The person: opens the take-over link, signs in on the live image, presses "Hand back". */
export async function personSignsIn(viewer: Browser, url: string, reason: string): Promise<void> {
  const page = await viewer.newPage({ viewport: { width: 1400, height: 1000 } });
  try {
    await page.goto(url);
    await page.locator('#needs-you').filter({ hasText: reason }).waitFor();
    await page.waitForFunction(
      () => Number(document.querySelector('.live img')?.getAttribute('data-frame-count')) >= 1,
    );
    await clickOnPage(page, 200, 40);
    await typeText(page, USER);
    await clickOnPage(page, 200, 100);
    await typeText(page, PASSWORD);
    await page.locator('button[data-key="Enter"]').click();
    await page.locator('.pageinfo').filter({ hasText: 'Home' }).waitFor();
    await page.locator('#handback').click();
  } finally {
    await page.close();
  }
}

/** A click on the live image at the held page's own CSS pixel (x, y) of its 1280 × 720 viewport. */
async function clickOnPage(person: Page, x: number, y: number): Promise<void> {
  const box = (await person.locator('.live img').boundingBox())!;
  await person.mouse.click(box.x + (x / 1280) * box.width, box.y + (y / 720) * box.height);
}

async function typeText(person: Page, text: string): Promise<void> {
  await person.locator('#takeover-text').fill(text);
  await person.getByRole('button', { name: 'Type', exact: true }).click();
}
