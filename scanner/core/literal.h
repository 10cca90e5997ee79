/*
 * C string literals as spelled in the source: whether every byte they
 * hold is ASCII.
 */
#ifndef CHARSCAN_LITERAL_H
#define CHARSCAN_LITERAL_H

/* 1 when spelling is one or more adjacent ordinary or u8 string literals
 * ("\001" "3") every byte of which, escapes decoded, is in 0..127;
 * 0 for anything else (a byte above 127, \u names, L"", not a literal). */
int literal_is_ascii(const char *spelling);

#endif
