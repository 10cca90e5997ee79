int a(char c) { return c < 0; } /* charscan-ignore CS002: on purpose */
/* charscan-ignore CS001,char-sign-test: reason */
int b(char c) { return c == -1; }
const char *s = "charscan-ignore CS003: in a string";
// charscan-ignore CS0O1: typo \
   continued
int d(char c) { return c > 'a'; } // charscan-ignore char-relational
char e = '"'; /* charscan-ignore */
