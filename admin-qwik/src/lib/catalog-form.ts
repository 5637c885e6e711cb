import './zod-csp';
import { NAME_SLUG_MAX, slugify } from '../../../worker/src/wire/slug';
import { CATALOGS, type CatalogKind, type FieldDef } from './catalog';
import { inWords, issueInWords } from './field-labels';
import type { Issue } from './result';

/**
 * A catalogue form's own logic, the same for every kind (lib/catalog.ts
 * says what differs): its values → the request body checked with the API's
 * schemas, its live field notes, and the API's words in its labels. Only the
 * catalogue screens import it: it brings zod.
 */

/** The kind's schemas and field notes, loaded once they are needed (or ahead, by the screen). */
export function loadRules(kind: CatalogKind) {
  const def = CATALOGS[kind];
  return Promise.all([def.schemas(), def.notes?.()]);
}

/** The form's field keys → their labels, for the API's and the schemas' messages. */
const labelsOf = (kind: CatalogKind): Record<string, string> =>
  Object.fromEntries(CATALOGS[kind].fields.map((f) => [f.name, f.label]));

/** A select sends the value of the option chosen (a number stays a number). */
function selected(field: FieldDef, text: string): unknown {
  if (field.type !== 'select') return text;
  return field.options.find((o) => String(o.value) === text)?.value ?? text;
}

/**
 * The form's values → the request body. Text is trimmed (a textarea is kept
 * as typed), a select sends its option's value; an empty field is sent as
 * its `ifEmpty` says: null (cleared) when an optional one does not say.
 */
export function formBody(fields: readonly FieldDef[], values: Record<string, string>): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const f of fields) {
    const raw = values[f.name] ?? '';
    const value = f.type === 'textarea' ? raw : raw.trim();
    if (value !== '') body[f.name] = selected(f, value);
    else if (f.ifEmpty === 'omit') continue;
    else if (f.ifEmpty) body[f.name] = slugify(values[f.ifEmpty.slugOf] ?? '', NAME_SLUG_MAX, '');
    else body[f.name] = f.required ? value : null;
  }
  return body;
}

/** The form's values → the request body (formBody), checked with the API's schema for a new or a changed item. */
export async function toBody(
  kind: CatalogKind,
  values: Record<string, string>,
  isNew: boolean,
): Promise<{ body: Record<string, unknown> } | { issues: Issue[] }> {
  const def = CATALOGS[kind];
  const body = formBody(def.fields, values);
  const schemas = await def.schemas();
  const result = schemas[isNew ? 'create' : 'update'].safeParse(body);
  if (result.success) return { body };
  const labels = labelsOf(kind);
  return {
    issues: result.error.issues.map((i) => issueInWords({ path: i.path.join('.'), message: i.message }, labels)),
  };
}

/** The live texts under the form's fields for these values (none for a kind without notes). */
export async function fieldNotes(kind: CatalogKind, values: Record<string, unknown>): Promise<Record<string, string>> {
  const notes = await CATALOGS[kind].notes?.();
  return notes ? notes(values) : {};
}

/** An API failure's message and issues with the form's own labels for its field keys. */
export function inFormWords(kind: CatalogKind, failure: { message: string; issues: Issue[] }) {
  const labels = labelsOf(kind);
  return {
    message: inWords(failure.message, labels),
    issues: failure.issues.map((i) => issueInWords(i, labels)),
  };
}
