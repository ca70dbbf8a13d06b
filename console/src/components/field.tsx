import type { ComponentChildren } from 'preact';

/** A labelled form field with the API's validation message under it (error.param names the field). */
export function Field(props: {
  id: string;
  label: string;
  error?: string | null;
  hint?: string;
  children: ComponentChildren;
}) {
  return (
    <div class={`field${props.error ? ' invalid' : ''}`}>
      <label for={props.id}>{props.label}</label>
      {props.children}
      {props.hint && !props.error && <small class="muted">{props.hint}</small>}
      {props.error && (
        <small class="field-error" id={`${props.id}-error`} role="alert">
          {props.error}
        </small>
      )}
    </div>
  );
}
