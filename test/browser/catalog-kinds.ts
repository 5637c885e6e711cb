import type { Locator } from 'playwright-core';
import { CATALOGS, type CatalogDef, type CatalogKind, type FieldDef } from '../../admin-qwik/src/lib/catalog.js';
import { formBody } from '../../admin-qwik/src/lib/catalog-form.js';

/**
 * The admin's catalogue kinds as the browser tests use them, all from their
 * entries (admin-qwik/src/lib/catalog.ts): a kind added there is tested
 * without a line here or in the tests.
 */
export const CATALOG_KINDS = Object.keys(CATALOGS) as CatalogKind[];

/** A field's accessible name: its label, with " (optional)" when it is. */
export const labelOf = (f: FieldDef): string => (f.required ? f.label : `${f.label} (optional)`);

/**
 * A value for the field that the API's rule accepts: the entry's sample, or
 * one made from the field's type (`n` tells items apart; a select takes its
 * first option).
 */
export function sampleOf(def: CatalogDef, f: FieldDef, n: number): string {
  if (f.sample !== undefined) return f.sample;
  if (f.type === 'select') return String(f.options[0]?.value ?? '');
  if (f.type === 'url') return `https://${def.noun}-${n}.example.com`;
  return `Sample ${def.noun} ${n}`;
}

/** What a test types into a new item's form: every required field and every field with a sample. */
export function sampleValues(def: CatalogDef, n: number): Record<string, string> {
  const fields = def.fields.filter((f) => f.required || f.sample !== undefined);
  return Object.fromEntries(fields.map((f) => [f.name, sampleOf(def, f, n)]));
}

/** The request body those values make (the form's own function), to create an item through the API. */
export const sampleBody = (def: CatalogDef, n: number): Record<string, unknown> =>
  formBody(def.fields, sampleValues(def, n));

/** Types `values` into a catalogue form (`new` or an edit form), by field name. */
export async function fillForm(form: Locator, def: CatalogDef, values: Record<string, string>): Promise<void> {
  for (const f of def.fields) {
    const value = values[f.name];
    if (value === undefined) continue;
    const control = form.locator(`[name="${f.name}"]`);
    if (f.type === 'select') await control.selectOption(value);
    else await control.fill(value);
  }
}

/** What a field of a stored item shows in its edit form. */
export const shownValue = (value: unknown): string => (value === null || value === undefined ? '' : String(value));
