import { encode } from 'gpt-tokenizer/encoding/o200k_base';

/** o200k token count of a text (GPT-4o family tokenizer): the unit every token column uses. */
export function countTokens(text) {
  return text ? encode(text).length : 0;
}
