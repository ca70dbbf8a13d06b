import { useState } from 'preact/hooks';
import type { Schemas } from '../api';
import { Field } from '../components/field';
import { FormError } from '../components/problem';
import { inputValue, useFormErrors } from '../components/form-errors';

type Provider = 'openai' | 'elevenlabs' | 'custom';
export const TRUNK_FIELDS = [
  'name',
  'ai_provider',
  'sip_username',
  'sip_password',
  'openai_api_key',
  'elevenlabs_api_key',
  'elevenlabs_agent_id',
  'custom_endpoint',
  'system_prompt',
] as const;
type Values = Record<(typeof TRUNK_FIELDS)[number], string>;

interface Props {
  mode: 'create' | 'edit';
  initial?: Schemas['TrunkDetailDto'];
  /** Sends the body; throws the ApiError whose param names the field at fault. */
  submit: (body: Record<string, string | null>) => Promise<void>;
}

/**
 * Create and edit a trunk. Provider keys are write-only: blank on edit means "unchanged", and the
 * API's validation message is shown at the field it names.
 */
export function TrunkForm({ mode, initial, submit }: Props) {
  const [values, setValues] = useState<Values>({
    name: initial?.name ?? '',
    ai_provider: initial?.ai_provider ?? 'openai',
    sip_username: initial?.sip_username ?? '',
    sip_password: '',
    openai_api_key: '',
    elevenlabs_api_key: '',
    elevenlabs_agent_id: initial?.elevenlabs_agent_id ?? '',
    custom_endpoint: initial?.custom_endpoint ?? '',
    system_prompt: initial?.system_prompt ?? '',
  });
  const [busy, setBusy] = useState(false);
  const errors = useFormErrors(TRUNK_FIELDS);
  const provider = values.ai_provider as Provider;
  const set = (name: keyof Values) => (event: Event) => setValues({ ...values, [name]: inputValue(event) });
  const input = (
    name: keyof Values,
    label: string,
    options: { type?: 'text' | 'password'; hint?: string; editable?: boolean } = {},
  ) => {
    const id = `trunk-${name}`;
    const error = errors.byField[name];
    return (
      <Field id={id} label={label} error={error} hint={options.hint}>
        <input
          id={id}
          name={name}
          type={(options.type ?? 'text') as 'text'}
          value={values[name]}
          disabled={options.editable === false}
          autocomplete="off"
          aria-invalid={error ? 'true' : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
          onInput={set(name)}
        />
      </Field>
    );
  };
  const onSubmit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    errors.clear();
    try {
      await submit(bodyOf(mode, values, initial));
    } catch (error) {
      errors.show(error);
    } finally {
      setBusy(false);
    }
  };
  return (
    <form class="form" onSubmit={onSubmit} noValidate>
      <FormError message={errors.general} />
      {input('name', 'Name')}
      <Field id="trunk-ai_provider" label="AI provider" error={errors.byField.ai_provider}>
        <select id="trunk-ai_provider" value={provider} disabled={mode === 'edit'} onChange={set('ai_provider')}>
          <option value="openai">OpenAI</option>
          <option value="elevenlabs">ElevenLabs</option>
          <option value="custom">Custom WebSocket agent</option>
        </select>
      </Field>
      {mode === 'create' && input('sip_username', 'SIP username', { hint: '3-64 letters, digits and hyphens' })}
      {mode === 'create' && input('sip_password', 'SIP password', { type: 'password', hint: 'At least 8 characters' })}
      {provider === 'openai' &&
        input('openai_api_key', 'OpenAI API key', {
          type: 'password',
          hint: mode === 'edit' ? 'Leave blank to keep the current key' : undefined,
        })}
      {provider === 'elevenlabs' &&
        input('elevenlabs_api_key', 'ElevenLabs API key', {
          type: 'password',
          hint: mode === 'edit' ? 'Leave blank to keep the current key' : undefined,
        })}
      {provider === 'elevenlabs' && input('elevenlabs_agent_id', 'ElevenLabs agent id')}
      {provider === 'custom' && input('custom_endpoint', 'Agent endpoint', { hint: 'wss://…' })}
      <Field id="trunk-system_prompt" label="System prompt" error={errors.byField.system_prompt}>
        <textarea id="trunk-system_prompt" rows={3} value={values.system_prompt} onInput={set('system_prompt')} />
      </Field>
      <button type="submit" disabled={busy}>
        {mode === 'create' ? 'Create trunk' : 'Save changes'}
      </button>
    </form>
  );
}

function bodyOf(
  mode: 'create' | 'edit',
  v: Values,
  initial?: Schemas['TrunkDetailDto'],
): Record<string, string | null> {
  const provider = v.ai_provider as Provider;
  const secrets = {
    openai: { openai_api_key: v.openai_api_key },
    elevenlabs: { elevenlabs_api_key: v.elevenlabs_api_key, elevenlabs_agent_id: v.elevenlabs_agent_id },
    custom: { custom_endpoint: v.custom_endpoint },
  }[provider] as Record<string, string>;
  if (mode === 'create') {
    const body: Record<string, string | null> = {
      name: v.name,
      ai_provider: provider,
      sip_username: v.sip_username,
      sip_password: v.sip_password,
      ...secrets,
    };
    if (v.system_prompt) body.system_prompt = v.system_prompt;
    return body;
  }
  // Edit: only what changed; blank secrets stay as they are.
  const body: Record<string, string | null> = {};
  if (v.name !== initial?.name) body.name = v.name;
  for (const [name, value] of Object.entries(secrets))
    if (value && value !== (initial as Record<string, unknown> | undefined)?.[name]) body[name] = value;
  if ((v.system_prompt || null) !== (initial?.system_prompt ?? null)) body.system_prompt = v.system_prompt || null;
  return body;
}
