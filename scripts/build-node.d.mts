/** A bundle's text with every non-ASCII character written as its \u escape (the same program). */
export function asciiOnly(text: string): string;
