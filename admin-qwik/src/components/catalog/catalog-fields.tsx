import { component$ } from '@builder.io/qwik';
import type { FieldDef } from '../../lib/catalog';
import type { Issue } from '../../lib/typed-api';

/**
 * A catalogue form's fields (lib/catalog.ts): text, URL, textarea or a select
 * of fixed options; uncontrolled (read on submit), errors tied to their field.
 * `notes` are live texts under a field (a site's link preview), updated as the form is typed in.
 */
export const Fields = component$(
  (props: {
    fields: readonly FieldDef[];
    prefix: string;
    values: Record<string, unknown>;
    issues: Issue[];
    notes: Record<string, string>;
  }) => (
    <>
      {props.fields.map((f) => {
        const id = `${props.prefix}-${f.name}`;
        const problem = props.issues.find((i) => i.path === f.name)?.message;
        const note = props.notes[f.name];
        const describedBy =
          [f.hint && `${id}-hint`, note && `${id}-note`, problem && `${id}-error`].filter(Boolean).join(' ') ||
          undefined;
        const value = props.values[f.name];
        const common = {
          id,
          name: f.name,
          'aria-invalid': problem ? true : undefined,
          'aria-describedby': describedBy,
        };
        return (
          <div class="field" key={f.name}>
            <label for={id}>
              {f.label}
              {!f.required && <span class="optional"> (optional)</span>}
            </label>
            {f.type === 'select' ? (
              <select {...common} required={f.required}>
                {!f.required && <option value="">Not set</option>}
                {f.options.map((o) => (
                  <option
                    key={String(o.value)}
                    value={String(o.value)}
                    selected={value != null && String(o.value) === String(value)}
                  >
                    {o.label}
                  </option>
                ))}
              </select>
            ) : f.type === 'textarea' ? (
              <textarea {...common} maxLength={f.maxLength} rows={3} value={typeof value === 'string' ? value : ''} />
            ) : (
              <input
                {...common}
                maxLength={f.maxLength}
                type={f.type}
                required={f.required}
                autoComplete="off"
                inputMode={f.type === 'url' ? 'url' : undefined}
                value={typeof value === 'string' ? value : ''}
              />
            )}
            {f.hint && (
              <p class="hint" id={`${id}-hint`}>
                {f.hint}
              </p>
            )}
            {note && (
              <p class="hint field-note" id={`${id}-note`}>
                {note}
              </p>
            )}
            {problem && (
              <p class="field-error" id={`${id}-error`}>
                {problem}
              </p>
            )}
          </div>
        );
      })}
    </>
  ),
);
