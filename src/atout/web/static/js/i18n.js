// The page's language (the server chose it) and the catalogue's words in it.
import { translator } from "./core/format.js";

export const lang = document.documentElement.lang === "en" ? "en" : "fr";
let translate = translator({});

/** Fetch the catalogue's words for the page (`common.*` and `web.*`). */
export async function loadMessages() {
  const response = await fetch(`/i18n/${lang}.json`);
  translate = translator(await response.json());
}

/** The catalogue's message `key` with `{name}` placeholders filled in. */
export function t(key, values = {}) {
  return translate(key, values);
}
