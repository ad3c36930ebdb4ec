import { launchChromium } from "./embed/_chromium.ts";
import { startTestService } from "./_server.ts";
const service = await startTestService();
const browser = await launchChromium();
try {
  const page = await browser.open(`${service.url}/docs`);
  const t0 = Date.now();
  await page.waitFor(`document.querySelectorAll("[data-section-id]").length > 50`, 60_000);
  console.log("rendered in", Date.now() - t0);
  await new Promise((r) => setTimeout(r, 2000));
  const ids = await page.evaluate<string[]>(`[...document.querySelectorAll("[data-section-id]")].map(e => e.getAttribute("data-section-id"))`);
  console.log(ids.length, ids.slice(0, 40), ids.filter(i=>/schema|section|webhook/i.test(i)).slice(0,40));
  console.log(page.requests);
  console.log(page.console.slice(0, 20));
  await page.screenshot("/tmp/docs.png");
} finally { await browser.close(); await service.close(); }
