#ifndef CHARSCAN_VERSION_H
#define CHARSCAN_VERSION_H

#define CHARSCAN_VERSION "0.1.0"
/* Where the rule pages are: the source tree, or the installed docs
 * (the Makefile sets it; SARIF helpUri must be an absolute URI). */
#ifndef CHARSCAN_RULES_URI
#define CHARSCAN_RULES_URI "file:///usr/local/share/doc/charscan/rules/"
#endif
#ifndef CHARSCAN_INFO_URI
#define CHARSCAN_INFO_URI "file:///usr/local/share/doc/charscan/README.md"
#endif

#endif
