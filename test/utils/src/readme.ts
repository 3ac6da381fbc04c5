// Helpers for the tests that run a package README's example as written.

/**
 * One `## ` section of a README, from its heading to the next `## ` heading.
 *
 * @param readme - The README's text.
 * @param heading - The heading line, e.g. `## Quick start`.
 * @returns The section, heading included.
 * @throws Error when the README has no such heading.
 */
export function readmeSection(readme: string, heading: string): string {
  const start = readme.indexOf(`\n${heading}\n`);
  if (start < 0) throw new Error(`README has no "${heading}" section`);
  const end = readme.indexOf('\n## ', start + heading.length + 2);
  return readme.slice(start, end < 0 ? undefined : end);
}

/**
 * The first fenced code block of a language in a text.
 *
 * @param text - Markdown, e.g. a {@link readmeSection}.
 * @param lang - The fence's language, e.g. `js` or `text`.
 * @returns The block's content, without the fences.
 * @throws Error when there is none.
 */
export function codeBlock(text: string, lang: string): string {
  const match = new RegExp('```' + lang + '\\n([\\s\\S]*?)\\n```').exec(text);
  if (!match?.[1]) throw new Error(`no \`\`\`${lang} block`);
  return match[1];
}
