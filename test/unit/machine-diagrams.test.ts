import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DIAGRAMS_DIR, indexPage, machinePages, mermaidOf } from '../../scripts/machine-diagrams';
import { pollMachine } from '../../machines/poll.machine';

// docs/machines/ is generated (npm run diagrams) for QA; a machine changed without its page drawn again fails here.

describe('machine diagrams for QA (docs/machines/)', () => {
  it('has a current page for every machine, and no page for a machine that is gone', async () => {
    const { pages, inputsOnly } = await machinePages();
    expect(pages.length).toBeGreaterThanOrEqual(30);
    const stale: string[] = [];
    for (const page of pages) {
      const file = path.join(DIAGRAMS_DIR, page.file);
      if (!existsSync(file) || readFileSync(file, 'utf8') !== page.markdown) stale.push(page.file);
    }
    const index = path.join(DIAGRAMS_DIR, 'README.md');
    if (!existsSync(index) || readFileSync(index, 'utf8') !== indexPage(pages, inputsOnly)) stale.push('README.md');
    const extra = readdirSync(DIAGRAMS_DIR).filter((f) => f !== 'README.md' && !pages.some((p) => p.file === f));
    expect({ stale, extra }, 'run `npm run diagrams` and commit docs/machines/').toEqual({ stale: [], extra: [] });
  }, 60_000);

  it('draws every state, the initial one, and every transition with its event and guard', () => {
    const { text, states, transitions } = mermaidOf(pollMachine);
    const stateNames = [...text.matchAll(/state "([^"]+)" as/g)].map((m) => m[1]).filter((name) => name !== 'in any state');
    expect(stateNames).toEqual(['waiting', 'checking', 'finished', 'gaveUp', 'failed', 'stopped']);
    expect(states).toBe(6);
    expect(text).toMatch(/\[\*\] --> \w+/);
    const arrows = text.split('\n').filter((l) => / --> (?!\[\*\])/.test(l) && !l.includes('[*] -->'));
    expect(arrows.length).toBeGreaterThanOrEqual(transitions);
    // What the machine handles in every state starts from one box.
    expect(text).toContain('state "in any state" as poll_any');
    expect(text).toContain('poll_any --> poll_stopped: poll.stop');
    expect(text).toMatch(/: after POLL_INTERVAL/);
  });
});
