#ifndef CHARSCAN_SARIF_H
#define CHARSCAN_SARIF_H

#include <stdio.h>
#include "findings.h"

struct sarif_run {
	const char *srcroot;		/* %SRCROOT%: URIs are relative to it */
	const char *signedness;		/* both | signed | unsigned */
	int complete;			/* every TU parsed */
};

/* SARIF 2.1.0, deterministic: the same findings give the same bytes. */
int write_sarif(FILE *f, const struct findings *fs, const struct notices *ns,
		const struct sarif_run *run);

#endif
