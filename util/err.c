/* err.c — filling an error-message buffer; see err.h. */
#include "util/err.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

int err_set(char err[ERR_MAX], const char *fmt, ...)
{
    if (!err) return -1;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, ERR_MAX, fmt, ap);
    va_end(ap);
    return -1;
}

const char *err_write_text(int errnum)
{
    return errnum == EPIPE ? "output closed (its reader ended)" : errnum ? strerror(errnum) : "write error";
}
