/**
 * Issue 46: ER_VISIT is "Emergency room or doctor visit" on the VAERS 1 form (VAERS Data Use Guide,
 * VAERSDATA.CSV: "ER_VISIT | Char (1) | Discontinued | Box 8 | Emergency room or doctor visit"); the VAERS
 * 2 form (FORM_VERS 2) has ER_ED_VISIT, the emergency room or department alone. The report page says
 * which, by the report's form: every report of the 1990-2006 files (the older layout, no FORM_VERS)
 * came on the VAERS 1 form.
 */
import { describe, expect, it } from 'vitest';
import { defaultApp } from '../../helpers/default-app.js';
import { erVisitLabel } from '../../../src/serve/cases/report-html.js';
import { hasDefaultStore } from '../../helpers/default-store.js';

describe('the ER_VISIT label of the report page', () => {
  it('says "or doctor" for the VAERS 1 form (no FORM_VERS, or 1) and "or department" for FORM_VERS 2', () => {
    expect(erVisitLabel(null)).toBe('Emergency room or doctor visit (ER_VISIT, VAERS 1 form)');
    expect(erVisitLabel('1')).toBe('Emergency room or doctor visit (ER_VISIT, VAERS 1 form)');
    expect(erVisitLabel('2')).toBe('Emergency room or department visit (ER_ED_VISIT, VAERS 2 form)');
  });

  it.skipIf(!hasDefaultStore('the ER_VISIT label on a real report'))('a 1998 report of data/vaers (the older layout) reads "Emergency room or doctor visit"', async () => {
    const app = await defaultApp();
    const json = (await app.inject({ url: '/reports/118916' })).json() as { form_vers?: unknown; er_visit?: unknown };
    expect(json.form_vers ?? null).toBeNull();
    expect(typeof json.er_visit).toBe('boolean');
    const html = (await app.inject({ url: '/reports/118916?format=html' })).body;
    expect(html).toContain('<dt>Emergency room or doctor visit (ER_VISIT, VAERS 1 form)</dt>');
    expect(html).not.toContain('<dt>ER visit</dt>');
  }, 120_000);
});
