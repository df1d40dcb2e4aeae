/* The arrays of a chunk of CoNLL-U lines, in one pass over its bytes.
 *
 * Why C: the numpy passes of loaders/conllu.py (_split_numpy: separators, tabs per line, the ten columns'
 * offsets, IDs and HEADs parsed column by column) took about 0.6 s of the treebank ingest's main thread per
 * million words, a tenth of its CPU time. Here each line is read once.
 *
 * An accelerator, not a second definition: _split_numpy stays the definition and the fallback (when this
 * module is not built), and tests/test_conllu_split.py checks that both give the same arrays on every real
 * treebank and on random lines.
 *
 *   split_lines(data) -> (start, end, kind, line, n_fields, first_tab, id_kind, major, minor, head, fields)
 *
 * each a bytearray holding a native array (int64, but kind and id_kind int8), for np.frombuffer. Lines are
 * the bytes before each line feed (bytes after the last line feed are not a line). Per line: start, end
 * (the line feed's offset), kind (0 blank, 1 comment: first byte '#', 2 token). Per token line, in order:
 * line (its index among the lines), n_fields (separators + 1; a separator is any byte below 11 but the line
 * feed: after source validation only the tab), first_tab (end of the first column), id_kind (0 word, 1 range,
 * 2 empty node, 3 bad), major and minor (7 -> 7, 0; 3-4 -> 3, 4; 8.1 -> 8, 1; bad: 0, 0), head (HEAD of a
 * word of ten columns when it is a plain integer of at most 9 digits without a leading zero, else -1) and
 * fields (10 x (start, end) per line of ten columns, zeros otherwise).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

enum { BLANK = 0, COMMENT = 1, TOKEN = 2 };
enum { WORD = 0, RANGE = 1, EMPTY = 2, BAD = 3 };

static int is_digit(unsigned char c) { return c >= '0' && c <= '9'; }

/* ID types as the UD format allows them: [1-9][0-9]{0,8} (word), [1-9][0-9]{0,8}-[1-9][0-9]{0,8} (range),
 * (0|[1-9][0-9]{0,8})\.[1-9][0-9]{0,8} (empty node), anything else bad. */
static void parse_id(const unsigned char *s, Py_ssize_t len, int8_t *kind, int64_t *major, int64_t *minor) {
    *kind = BAD;
    *major = 0;
    *minor = 0;
    if (len < 1 || len > 19) return;
    Py_ssize_t pos = len, others = 0;
    for (Py_ssize_t k = 0; k < len; k++) {
        if (!is_digit(s[k])) {
            if (others == 0) pos = k;
            others++;
        }
    }
    if (others == 0) {
        if (len <= 9 && s[0] != '0') {
            int64_t v = 0;
            for (Py_ssize_t k = 0; k < len; k++) v = v * 10 + (s[k] - '0');
            *kind = WORD;
            *major = v;
        }
        return;
    }
    if (others != 1) return;
    Py_ssize_t left = pos, right = len - pos - 1;
    if (left < 1 || left > 9 || right < 1 || right > 9 || s[pos + 1] == '0') return;
    int8_t k;
    if (s[pos] == '-' && s[0] != '0') k = RANGE;
    else if (s[pos] == '.' && (s[0] != '0' || left == 1)) k = EMPTY;
    else return;
    int64_t a = 0, b = 0;
    for (Py_ssize_t i = 0; i < pos; i++) a = a * 10 + (s[i] - '0');
    for (Py_ssize_t i = pos + 1; i < len; i++) b = b * 10 + (s[i] - '0');
    *kind = k;
    *major = a;
    *minor = b;
}

/* HEAD: a plain non-negative integer of at most 9 digits without a leading zero; -1 otherwise. */
static int64_t parse_head(const unsigned char *s, Py_ssize_t len) {
    if (len < 1 || len > 9 || (s[0] == '0' && len > 1)) return -1;
    int64_t v = 0;
    for (Py_ssize_t k = 0; k < len; k++) {
        if (!is_digit(s[k])) return -1;
        v = v * 10 + (s[k] - '0');
    }
    return v;
}

static PyObject *new_array(Py_ssize_t n, size_t item, char **data) {
    PyObject *b = PyByteArray_FromStringAndSize(NULL, n * (Py_ssize_t)item);
    if (b) {
        *data = PyByteArray_AS_STRING(b);
        memset(*data, 0, (size_t)n * item);
    }
    return b;
}

static PyObject *split_lines(PyObject *self, PyObject *args) {
    (void)self;
    Py_buffer view;
    if (!PyArg_ParseTuple(args, "y*", &view)) return NULL;
    const unsigned char *buf = view.buf, *stop = buf + view.len;
    Py_ssize_t n_lines = 0, n_tok = 0;
    for (const unsigned char *p = buf; p < stop;) {
        const unsigned char *nl = memchr(p, '\n', (size_t)(stop - p));
        if (!nl) break;
        if (nl > p && *p != '#') n_tok++;
        n_lines++;
        p = nl + 1;
    }
    enum { N = 11 };
    PyObject *arrays[N] = {0};
    char *data[N];
    static const size_t item[N] = {8, 8, 1, 8, 8, 8, 1, 8, 8, 8, 8 * 20};
    for (int k = 0; k < N; k++) {
        arrays[k] = new_array(k < 3 ? n_lines : n_tok, item[k], &data[k]);
        if (!arrays[k]) goto fail;
    }
    int64_t *start = (int64_t *)data[0], *end = (int64_t *)data[1], *line = (int64_t *)data[3];
    int64_t *n_fields = (int64_t *)data[4], *first_tab = (int64_t *)data[5], *major = (int64_t *)data[7];
    int64_t *minor = (int64_t *)data[8], *head = (int64_t *)data[9], *fields = (int64_t *)data[10];
    int8_t *kind = (int8_t *)data[2], *id_kind = (int8_t *)data[6];
    Py_ssize_t l = 0, t = 0;
    for (const unsigned char *p = buf; l < n_lines; l++) {
        const unsigned char *nl = memchr(p, '\n', (size_t)(stop - p));
        Py_ssize_t s = p - buf, e = nl - buf;
        start[l] = s;
        end[l] = e;
        kind[l] = e == s ? BLANK : *p == '#' ? COMMENT : TOKEN;
        if (kind[l] == TOKEN) {
            Py_ssize_t tabs[9], n_tabs = 0;
            for (Py_ssize_t i = s; i < e; i++) {
                if (buf[i] < 11) {
                    if (n_tabs < 9) tabs[n_tabs] = i;
                    n_tabs++;
                }
            }
            line[t] = l;
            n_fields[t] = n_tabs + 1;
            first_tab[t] = n_tabs ? tabs[0] : e;
            parse_id(buf + s, first_tab[t] - s, &id_kind[t], &major[t], &minor[t]);
            head[t] = -1;
            if (n_tabs == 9) {
                int64_t *f = fields + 20 * t;
                f[0] = s;
                for (int k = 0; k < 9; k++) {
                    f[2 * k + 1] = tabs[k];
                    f[2 * k + 2] = tabs[k] + 1;
                }
                f[19] = e;
                if (id_kind[t] == WORD) head[t] = parse_head(buf + f[12], f[13] - f[12]);
            }
            t++;
        }
        p = nl + 1;
    }
    PyBuffer_Release(&view);
    PyObject *out = PyTuple_New(N);
    if (!out) goto fail_released;
    for (int k = 0; k < N; k++) PyTuple_SET_ITEM(out, k, arrays[k]);
    return out;
fail:
    PyBuffer_Release(&view);
fail_released:
    for (int k = 0; k < N; k++) Py_XDECREF(arrays[k]);
    return NULL;
}

static PyMethodDef methods[] = {
    {"split_lines", split_lines, METH_VARARGS, "The arrays of a chunk of CoNLL-U lines (see the module source)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_conllu", NULL, -1, methods};

PyMODINIT_FUNC PyInit__conllu(void) { return PyModule_Create(&module); }
