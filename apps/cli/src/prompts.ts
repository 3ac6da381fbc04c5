// inquirer's prompts, loaded on the first question asked: most runs never ask one, and
// @inquirer/prompts brings every prompt along (its editor prompt with character-set tables of
// half a megabyte). The same functions, with the same arguments and answers.
import type * as InquirerPrompts from '@inquirer/prompts';
import type {
  checkbox as Checkbox,
  confirm as Confirm,
  input as Input,
  select as Select,
} from '@inquirer/prompts';

type Prompts = typeof InquirerPrompts;

let loading: Promise<Prompts> | undefined;

function prompts(): Promise<Prompts> {
  loading ??= import('@inquirer/prompts');
  return loading;
}

/** `confirm` of @inquirer/prompts. */
export async function confirm(...args: Parameters<typeof Confirm>): Promise<boolean> {
  return (await prompts()).confirm(...args);
}

/** `input` of @inquirer/prompts. */
export async function input(...args: Parameters<typeof Input>): Promise<string> {
  return (await prompts()).input(...args);
}

/** `select` of @inquirer/prompts. */
export async function select<Value>(...args: Parameters<typeof Select<Value>>): Promise<Value> {
  return (await prompts()).select<Value>(...args);
}

/** `checkbox` of @inquirer/prompts. */
export async function checkbox<Value>(
  ...args: Parameters<typeof Checkbox<Value>>
): Promise<Value[]> {
  return (await prompts()).checkbox<Value>(...args);
}
