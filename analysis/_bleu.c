/* Clipped n-gram matches of many (hypothesis, reference) pairs, exactly, in one pass per pair.
 *
 * Why C: sentence BLEU over tens of thousands of pairs is dominated by turning strings into
 * integers (numpy needs a factorisation of every token first) and by per-call overhead in the SQL
 * function. Here each pair is scored where its tokens already are: Python str objects (UTF-8 of
 * each token), a whitespace-separated text, or the buffers of an Arrow list<string> column.
 *
 * Exactness: tokens are equal when their UTF-8 bytes are equal (texts, Arrow) or when their
 * code units and PEP 393 kind are (str tokens: equal strings have equal canonical forms). Inside one pair, reference tokens get dense ids through a hash table that compares the
 * bytes on every probe (a hash only chooses the slot). An n-gram's key is the exact pair
 * (key of its first n-1 tokens, id of its last token), again interned through a table; so no two
 * different n-grams ever share a key. Hypothesis n-grams are looked up, never inserted: an n-gram
 * that does not occur in the reference cannot match, nor can any n-gram extending it.
 * Clipped matches: the reference count of each n-gram is decremented by each hypothesis
 * occurrence while positive, which sums min(count_hyp, count_ref) over n-grams.
 *
 * Output per pair (int64): hypothesis length, reference length, matches for n = 1..4.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define ORDER 4
#define NONE UINT32_MAX

typedef struct {
    const char *ptr;
    Py_ssize_t len; /* in bytes */
    int kind;       /* 0: UTF-8 bytes; 1, 2, 4: the code units of a str (PEP 393 kind); the two
                       texts of a pair always use one encoding, so equal tokens have equal bytes */
} Tok;

typedef struct {
    uint64_t hash;
    uint32_t gen;
    uint32_t id;
} TokSlot;

typedef struct {
    uint64_t key;
    uint32_t gen;
    uint32_t id;
} KeySlot;

typedef struct {
    /* tokens of the current pair */
    Tok *hyp, *ref;
    Py_ssize_t hyp_cap, ref_cap;
    /* hash tables (open addressing, generation-stamped so they never need clearing) */
    TokSlot *tok_slots;
    const Tok **tok_of_id;
    KeySlot *key_slots;
    size_t table_cap; /* power of two */
    uint32_t gen;
    /* per-position keys and per-key reference counts */
    uint32_t *hkey, *rkey, *count, *hid, *rid;
    size_t pos_cap;
} Work;

static void work_free(Work *w) {
    free(w->hyp); free(w->ref); free(w->tok_slots); free(w->tok_of_id); free(w->key_slots);
    free(w->hkey); free(w->rkey); free(w->count); free(w->hid); free(w->rid);
    memset(w, 0, sizeof(*w));
}

static int grow_tokens(Tok **arr, Py_ssize_t *cap, Py_ssize_t need) {
    if (need <= *cap) return 0;
    Py_ssize_t n = *cap ? *cap : 64;
    while (n < need) n *= 2;
    Tok *p = realloc(*arr, (size_t)n * sizeof(Tok));
    if (!p) { PyErr_NoMemory(); return -1; }
    *arr = p; *cap = n;
    return 0;
}

/* make room for a pair with nh hypothesis and nr reference tokens */
static int work_reserve(Work *w, Py_ssize_t nh, Py_ssize_t nr) {
    size_t n = (size_t)(nh > nr ? nh : nr) + 1;
    if (n > w->pos_cap) {
        size_t c = w->pos_cap ? w->pos_cap : 256;
        while (c < n) c *= 2;
        uint32_t *a = realloc(w->hkey, c * sizeof(uint32_t));
        if (a) w->hkey = a;
        uint32_t *b = realloc(w->rkey, c * sizeof(uint32_t));
        if (b) w->rkey = b;
        uint32_t *d = realloc(w->count, c * sizeof(uint32_t));
        if (d) w->count = d;
        uint32_t *e = realloc(w->hid, c * sizeof(uint32_t));
        if (e) w->hid = e;
        uint32_t *f = realloc(w->rid, c * sizeof(uint32_t));
        if (f) w->rid = f;
        if (!a || !b || !d || !e || !f) { PyErr_NoMemory(); return -1; }
        w->pos_cap = c;
    }
    size_t need = 2 * (size_t)nr + 16; /* load factor <= 1/2: only reference items are inserted */
    if (need > w->table_cap) {
        size_t c = w->table_cap ? w->table_cap : 1024;
        while (c < need) c *= 2;
        free(w->tok_slots); free(w->key_slots); free(w->tok_of_id);
        w->tok_slots = calloc(c, sizeof(TokSlot));
        w->key_slots = calloc(c, sizeof(KeySlot));
        w->tok_of_id = malloc(c * sizeof(Tok *));
        if (!w->tok_slots || !w->key_slots || !w->tok_of_id) { PyErr_NoMemory(); return -1; }
        w->table_cap = c;
        w->gen = 0;
    }
    return 0;
}

static uint32_t next_gen(Work *w) {
    if (++w->gen == 0) { /* wrapped: clear the stamps once every 2^32 uses */
        memset(w->tok_slots, 0, w->table_cap * sizeof(TokSlot));
        memset(w->key_slots, 0, w->table_cap * sizeof(KeySlot));
        w->gen = 1;
    }
    return w->gen;
}

static inline uint64_t mix64(uint64_t x) {
    x ^= x >> 33; x *= 0xff51afd7ed558ccdULL; x ^= x >> 33; x *= 0xc4ceb9fe1a85ec53ULL; x ^= x >> 33;
    return x;
}

/* a hash only picks the first slot to probe; equality is always checked on the bytes */
static inline uint64_t hash_bytes(const char *p, Py_ssize_t n) {
    uint64_t h = 0x9e3779b97f4a7c15ULL ^ (uint64_t)n, v = 0;
    while (n > 8) { memcpy(&v, p, 8); h = (h ^ v) * 0x100000001b3ULL; h ^= h >> 31; p += 8; n -= 8; }
    if (n >= 4) { /* two overlapping 4-byte loads cover 4..8 bytes */
        uint32_t a, b;
        memcpy(&a, p, 4); memcpy(&b, p + n - 4, 4);
        v = ((uint64_t)b << 32) | a;
    } else if (n > 0) {
        v = (uint64_t)(unsigned char)p[0] | ((uint64_t)(unsigned char)p[n / 2] << 8) |
            ((uint64_t)(unsigned char)p[n - 1] << 16);
    } else {
        v = 0;
    }
    return mix64(h ^ v);
}

static inline int same_token(const Tok *a, const Tok *b) {
    return a->len == b->len && a->kind == b->kind && memcmp(a->ptr, b->ptr, (size_t)a->len) == 0;
}

/* Matches of one pair; tokens are in w->hyp[0..nh) and w->ref[0..nr). */
static void score_pair(Work *w, Py_ssize_t nh, Py_ssize_t nr, int64_t *out) {
    out[0] = nh; out[1] = nr;
    for (int n = 0; n < ORDER; n++) out[2 + n] = 0;
    if (nh == 0 || nr == 0) return;
    size_t mask = w->table_cap - 1;
    /* token ids: reference tokens are interned, hypothesis tokens looked up */
    uint32_t gen = next_gen(w), ntypes = 0;
    for (Py_ssize_t i = 0; i < nr; i++) {
        const Tok *t = &w->ref[i];
        uint64_t h = hash_bytes(t->ptr, t->len);
        size_t s = (size_t)h & mask;
        for (;;) {
            TokSlot *slot = &w->tok_slots[s];
            if (slot->gen != gen) {
                slot->gen = gen; slot->hash = h; slot->id = ntypes;
                w->tok_of_id[ntypes] = t; w->count[ntypes] = 0;
                w->rkey[i] = ntypes++;
                break;
            }
            const Tok *o = w->tok_of_id[slot->id];
            if (slot->hash == h && same_token(o, t)) {
                w->rkey[i] = slot->id;
                break;
            }
            s = (s + 1) & mask;
        }
        w->count[w->rkey[i]]++;
    }
    int64_t m = 0;
    for (Py_ssize_t i = 0; i < nh; i++) {
        const Tok *t = &w->hyp[i];
        uint64_t h = hash_bytes(t->ptr, t->len);
        size_t s = (size_t)h & mask;
        uint32_t id = NONE;
        for (;;) {
            TokSlot *slot = &w->tok_slots[s];
            if (slot->gen != gen) break;
            const Tok *o = w->tok_of_id[slot->id];
            if (slot->hash == h && same_token(o, t)) {
                id = slot->id;
                break;
            }
            s = (s + 1) & mask;
        }
        w->hkey[i] = id;
        if (id != NONE && w->count[id] > 0) { w->count[id]--; m++; }
    }
    out[2] = m;
    /* the n-gram key arrays are updated in place; keep each position's token id */
    uint32_t *rid = w->rid, *hid = w->hid;
    memcpy(rid, w->rkey, (size_t)nr * sizeof(uint32_t));
    memcpy(hid, w->hkey, (size_t)nh * sizeof(uint32_t));
    for (int n = 2; n <= ORDER; n++) {
        Py_ssize_t rn = nr - n + 1, hn = nh - n + 1;
        if (rn <= 0 || hn <= 0) break;
        gen = next_gen(w);
        uint32_t nkeys = 0;
        for (Py_ssize_t i = 0; i < rn; i++) {
            uint64_t key = ((uint64_t)w->rkey[i] << 32) | rid[i + n - 1];
            size_t s = (size_t)mix64(key) & mask;
            for (;;) {
                KeySlot *slot = &w->key_slots[s];
                if (slot->gen != gen) {
                    slot->gen = gen; slot->key = key; slot->id = nkeys;
                    w->count[nkeys] = 0;
                    w->rkey[i] = nkeys++;
                    break;
                }
                if (slot->key == key) { w->rkey[i] = slot->id; break; }
                s = (s + 1) & mask;
            }
            w->count[w->rkey[i]]++;
        }
        m = 0;
        int alive = 0;
        for (Py_ssize_t i = 0; i < hn; i++) {
            uint32_t prefix = w->hkey[i], last = hid[i + n - 1], id = NONE;
            if (prefix != NONE && last != NONE) {
                uint64_t key = ((uint64_t)prefix << 32) | last;
                size_t s = (size_t)mix64(key) & mask;
                for (;;) {
                    KeySlot *slot = &w->key_slots[s];
                    if (slot->gen != gen) break;
                    if (slot->key == key) { id = slot->id; break; }
                    s = (s + 1) & mask;
                }
            }
            w->hkey[i] = id;
            if (id != NONE) {
                alive = 1;
                if (w->count[id] > 0) { w->count[id]--; m++; }
            }
        }
        out[1 + n] = m;
        if (!alive) break;
    }
}

/* ---- inputs ------------------------------------------------------------------------------- */

/* Tokens of a sequence of str: each token is the code units of its canonical (PEP 393) form, so
 * two tokens are equal exactly when the strings are (equal strings have the same kind and units). */
static Py_ssize_t fill_from_tokens(PyObject *fast, Tok **toks, Py_ssize_t *cap) {
    Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
    if (grow_tokens(toks, cap, n) < 0) return -1;
    PyObject **items = PySequence_Fast_ITEMS(fast);
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *o = items[i];
        if (!PyUnicode_Check(o)) {
            PyErr_Format(PyExc_TypeError, "tokens must be str, got %.100s", Py_TYPE(o)->tp_name);
            return -1;
        }
#if PY_VERSION_HEX < 0x030C0000
        if (PyUnicode_READY(o) < 0) return -1;
#endif
        int kind = PyUnicode_KIND(o);
        (*toks)[i].ptr = PyUnicode_DATA(o);
        (*toks)[i].len = PyUnicode_GET_LENGTH(o) * kind;
        (*toks)[i].kind = kind;
    }
    return n;
}

/* Texts are split where str.split() splits: at the characters Py_UNICODE_ISSPACE accepts (ASCII
 * \t \n \v \f \r \x1c-\x1f and space, and the Unicode white space Python knows). */
static const unsigned char ascii_space[128] = {
    [9] = 1, [10] = 1, [11] = 1, [12] = 1, [13] = 1, [28] = 1, [29] = 1, [30] = 1, [31] = 1, [32] = 1};

/* width in bytes of the character at p if it is white space, else 0 (p < end, valid UTF-8) */
static inline int space_at(const unsigned char *p, const unsigned char *end) {
    unsigned char c = p[0];
    if (c < 0x80) return ascii_space[c];
    Py_UCS4 ch;
    int w;
    if (c < 0xE0) { w = 2; ch = c & 0x1F; }
    else if (c < 0xF0) { w = 3; ch = c & 0x0F; }
    else { w = 4; ch = c & 0x07; }
    if (p + w > end) return 0;
    for (int i = 1; i < w; i++) ch = (ch << 6) | (p[i] & 0x3F);
    return Py_UNICODE_ISSPACE(ch) ? w : 0;
}

static inline int char_width(unsigned char c) {
    return c < 0x80 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
}

static int check_text(PyObject *text) {
    if (!PyUnicode_Check(text)) {
        PyErr_Format(PyExc_TypeError, "texts must be str, got %.100s", Py_TYPE(text)->tp_name);
        return -1;
    }
#if PY_VERSION_HEX < 0x030C0000
    if (PyUnicode_READY(text) < 0) return -1;
#endif
    return 0;
}

/* Tokens of a text whose characters are all below 256 (PEP 393 kind 1), read from its own
 * one-byte-per-character data (no UTF-8 copy); tokens get kind 1. Only used when both texts of a
 * pair are of kind 1, so that the two sides are compared in the same encoding. */
static Py_ssize_t fill_from_latin1(PyObject *text, Tok **toks, Py_ssize_t *cap) {
    const unsigned char *p = PyUnicode_DATA(text), *end = p + PyUnicode_GET_LENGTH(text);
    Py_ssize_t n = 0;
    while (p < end) {
        while (p < end && (*p < 128 ? ascii_space[*p] : Py_UNICODE_ISSPACE(*p))) p++;
        if (p >= end) break;
        const unsigned char *start = p;
        while (p < end && !(*p < 128 ? ascii_space[*p] : Py_UNICODE_ISSPACE(*p))) p++;
        if (n >= *cap && grow_tokens(toks, cap, n + 1) < 0) return -1;
        (*toks)[n].ptr = (const char *)start; (*toks)[n].len = p - start; (*toks)[n].kind = 1;
        n++;
    }
    return n;
}

/* Tokens of any text, as slices of its UTF-8 form (cached on the str by Python); tokens get kind 0. */
static Py_ssize_t fill_from_utf8(PyObject *text, Tok **toks, Py_ssize_t *cap) {
    Py_ssize_t len;
    const char *s = PyUnicode_AsUTF8AndSize(text, &len);
    if (!s) return -1;
    const unsigned char *p = (const unsigned char *)s, *end = p + len;
    Py_ssize_t n = 0;
    while (p < end) {
        int w;
        while (p < end && (w = space_at(p, end)) > 0) p += w;
        if (p >= end) break;
        const unsigned char *start = p;
        while (p < end && space_at(p, end) == 0) p += char_width(*p);
        if (p > end) p = end;
        if (n >= *cap && grow_tokens(toks, cap, n + 1) < 0) return -1;
        (*toks)[n].ptr = (const char *)start; (*toks)[n].len = p - start; (*toks)[n].kind = 0;
        n++;
    }
    return n;
}

/* Tokens of both texts of a pair, in one encoding for the two; returns 0, or -1 with an error set. */
static int fill_pair_from_texts(PyObject *h, PyObject *r, Work *w, Py_ssize_t *nh, Py_ssize_t *nr) {
    if (check_text(h) < 0 || check_text(r) < 0) return -1;
    if (PyUnicode_KIND(h) == PyUnicode_1BYTE_KIND && PyUnicode_KIND(r) == PyUnicode_1BYTE_KIND) {
        *nh = fill_from_latin1(h, &w->hyp, &w->hyp_cap);
        *nr = *nh < 0 ? -1 : fill_from_latin1(r, &w->ref, &w->ref_cap);
    } else {
        *nh = fill_from_utf8(h, &w->hyp, &w->hyp_cap);
        *nr = *nh < 0 ? -1 : fill_from_utf8(r, &w->ref, &w->ref_cap);
    }
    return *nr < 0 ? -1 : 0;
}

static int get_out(PyObject *out_obj, Py_ssize_t k, Py_buffer *view) {
    if (PyObject_GetBuffer(out_obj, view, PyBUF_WRITABLE | PyBUF_C_CONTIGUOUS) < 0) return -1;
    if (view->len != k * (Py_ssize_t)(2 + ORDER) * (Py_ssize_t)sizeof(int64_t)) {
        PyBuffer_Release(view);
        PyErr_SetString(PyExc_ValueError, "out must hold 6 int64 per pair");
        return -1;
    }
    return 0;
}

/* matches_of_tokens(hypotheses, references, out): sequences of sequences of str */
static PyObject *matches_of_tokens(PyObject *self, PyObject *args) {
    PyObject *hyps, *refs, *out_obj;
    if (!PyArg_ParseTuple(args, "OOO", &hyps, &refs, &out_obj)) return NULL;
    PyObject *hf = PySequence_Fast(hyps, "hypotheses must be a sequence");
    if (!hf) return NULL;
    PyObject *rf = PySequence_Fast(refs, "references must be a sequence");
    if (!rf) { Py_DECREF(hf); return NULL; }
    Py_ssize_t k = PySequence_Fast_GET_SIZE(hf);
    Work w; memset(&w, 0, sizeof(w));
    Py_buffer view; view.obj = NULL;
    PyObject *result = NULL;
    if (PySequence_Fast_GET_SIZE(rf) != k) {
        PyErr_SetString(PyExc_ValueError, "hypotheses and references differ in number");
        goto done;
    }
    if (get_out(out_obj, k, &view) < 0) goto done;
    int64_t *out = view.buf;
    for (Py_ssize_t j = 0; j < k; j++) {
        PyObject *h = PySequence_Fast(PySequence_Fast_GET_ITEM(hf, j), "a hypothesis must be a sequence of tokens");
        if (!h) goto done;
        PyObject *r = PySequence_Fast(PySequence_Fast_GET_ITEM(rf, j), "a reference must be a sequence of tokens");
        if (!r) { Py_DECREF(h); goto done; }
        Py_ssize_t nh = fill_from_tokens(h, &w.hyp, &w.hyp_cap);
        Py_ssize_t nr = nh < 0 ? -1 : fill_from_tokens(r, &w.ref, &w.ref_cap);
        if (nr >= 0 && work_reserve(&w, nh, nr) == 0) score_pair(&w, nh, nr, out + j * (2 + ORDER));
        Py_DECREF(h); Py_DECREF(r);
        if (nr < 0 || PyErr_Occurred()) goto done;
    }
    result = Py_None; Py_INCREF(result);
done:
    if (view.obj) PyBuffer_Release(&view);
    work_free(&w);
    Py_DECREF(hf); Py_DECREF(rf);
    return result;
}

/* matches_of_texts(hypotheses, references, out): sequences of str, tokens = text.split() */
static PyObject *matches_of_texts(PyObject *self, PyObject *args) {
    PyObject *hyps, *refs, *out_obj;
    if (!PyArg_ParseTuple(args, "OOO", &hyps, &refs, &out_obj)) return NULL;
    PyObject *hf = PySequence_Fast(hyps, "hypotheses must be a sequence of str");
    if (!hf) return NULL;
    PyObject *rf = PySequence_Fast(refs, "references must be a sequence of str");
    if (!rf) { Py_DECREF(hf); return NULL; }
    Py_ssize_t k = PySequence_Fast_GET_SIZE(hf);
    Work w; memset(&w, 0, sizeof(w));
    Py_buffer view; view.obj = NULL;
    PyObject *result = NULL;
    if (PySequence_Fast_GET_SIZE(rf) != k) {
        PyErr_SetString(PyExc_ValueError, "hypotheses and references differ in number");
        goto done;
    }
    if (get_out(out_obj, k, &view) < 0) goto done;
    int64_t *out = view.buf;
    for (Py_ssize_t j = 0; j < k; j++) {
        Py_ssize_t nh, nr;
        if (fill_pair_from_texts(PySequence_Fast_GET_ITEM(hf, j), PySequence_Fast_GET_ITEM(rf, j), &w, &nh, &nr) < 0)
            goto done;
        if (work_reserve(&w, nh, nr) < 0) goto done;
        score_pair(&w, nh, nr, out + j * (2 + ORDER));
    }
    result = Py_None; Py_INCREF(result);
done:
    if (view.obj) PyBuffer_Release(&view);
    work_free(&w);
    Py_DECREF(hf); Py_DECREF(rf);
    return result;
}

/* matches_of_arrow(h_lists, h_strs, h_data, r_lists, r_strs, r_data, out):
 * int32 list offsets (k + 1 values), int32 string offsets, UTF-8 bytes, for each side; the
 * list offsets index the string offsets, which index the bytes (all already shifted for slicing
 * by the caller). */
static PyObject *matches_of_arrow(PyObject *self, PyObject *args) {
    PyObject *objs[7];
    if (!PyArg_ParseTuple(args, "OOOOOOO", &objs[0], &objs[1], &objs[2], &objs[3], &objs[4], &objs[5], &objs[6]))
        return NULL;
    Py_buffer b[7];
    int got = 0;
    PyObject *result = NULL;
    Work w; memset(&w, 0, sizeof(w));
    for (; got < 6; got++)
        if (PyObject_GetBuffer(objs[got], &b[got], PyBUF_SIMPLE) < 0) goto done;
    Py_ssize_t k = b[0].len / 4 - 1;
    if (k < 0 || b[3].len / 4 - 1 != k) {
        PyErr_SetString(PyExc_ValueError, "hypotheses and references differ in number");
        goto done;
    }
    if (get_out(objs[6], k, &b[6]) < 0) goto done;
    got = 7;
    const int32_t *hl = b[0].buf, *hs = b[1].buf, *rl = b[3].buf, *rs = b[4].buf;
    const char *hd = b[2].buf, *rd = b[5].buf;
    Py_ssize_t hs_n = b[1].len / 4, rs_n = b[4].len / 4;
    int64_t *out = b[6].buf;
    for (Py_ssize_t j = 0; j < k; j++) {
        Py_ssize_t h0 = hl[j], h1 = hl[j + 1], r0 = rl[j], r1 = rl[j + 1];
        if (h0 < 0 || h1 < h0 || h1 >= hs_n || r0 < 0 || r1 < r0 || r1 >= rs_n) {
            PyErr_SetString(PyExc_ValueError, "inconsistent Arrow offsets");
            goto done;
        }
        Py_ssize_t nh = h1 - h0, nr = r1 - r0;
        if (grow_tokens(&w.hyp, &w.hyp_cap, nh) < 0 || grow_tokens(&w.ref, &w.ref_cap, nr) < 0) goto done;
        for (Py_ssize_t i = 0; i < nh; i++) {
            int32_t a = hs[h0 + i], e = hs[h0 + i + 1];
            if (a < 0 || e < a || e > b[2].len) { PyErr_SetString(PyExc_ValueError, "inconsistent Arrow offsets"); goto done; }
            w.hyp[i].ptr = hd + a; w.hyp[i].len = e - a; w.hyp[i].kind = 0;
        }
        for (Py_ssize_t i = 0; i < nr; i++) {
            int32_t a = rs[r0 + i], e = rs[r0 + i + 1];
            if (a < 0 || e < a || e > b[5].len) { PyErr_SetString(PyExc_ValueError, "inconsistent Arrow offsets"); goto done; }
            w.ref[i].ptr = rd + a; w.ref[i].len = e - a; w.ref[i].kind = 0;
        }
        if (work_reserve(&w, nh, nr) < 0) goto done;
        score_pair(&w, nh, nr, out + j * (2 + ORDER));
    }
    result = Py_None; Py_INCREF(result);
done:
    for (int i = 0; i < got; i++) PyBuffer_Release(&b[i]);
    work_free(&w);
    return result;
}

/* ---- edit distances (the SR evaluation script's DIST) ------------------------------------- */

/* Levenshtein distance with unit costs (insert, delete, substitute), two rows */
static int64_t levenshtein(const uint32_t *a, Py_ssize_t n, const uint32_t *b, Py_ssize_t m, int64_t *row) {
    if (n == 0) return m;
    if (m == 0) return n;
    for (Py_ssize_t j = 0; j <= m; j++) row[j] = j;
    for (Py_ssize_t i = 1; i <= n; i++) {
        int64_t diag = row[0], x = a[i - 1];
        row[0] = i;
        for (Py_ssize_t j = 1; j <= m; j++) {
            int64_t up = row[j];
            int64_t best = diag + (x != b[j - 1]);
            if (up + 1 < best) best = up + 1;
            if (row[j - 1] + 1 < best) best = row[j - 1] + 1;
            row[j] = best;
            diag = up;
        }
    }
    return row[m];
}

/* code points of the tokens joined by single spaces, appended to buf */
static Py_ssize_t joined_code_points(const Tok *toks, Py_ssize_t n, uint32_t *buf) {
    Py_ssize_t k = 0;
    for (Py_ssize_t t = 0; t < n; t++) {
        if (t) buf[k++] = ' ';
        const unsigned char *p = (const unsigned char *)toks[t].ptr, *end = p + toks[t].len;
        if (toks[t].kind == 1) { /* Latin-1: one byte, one code point */
            while (p < end) buf[k++] = *p++;
            continue;
        }
        while (p < end) {
            unsigned char c = *p;
            int w = char_width(c);
            uint32_t ch = w == 1 ? c : w == 2 ? (c & 0x1Fu) : w == 3 ? (c & 0x0Fu) : (c & 0x07u);
            for (int i = 1; i < w && p + i < end; i++) ch = (ch << 6) | (p[i] & 0x3Fu);
            buf[k++] = ch;
            p += w;
        }
    }
    return k;
}

/* edit_distances_of_texts(hypotheses, references, out): texts split as str.split(); per pair into
 * out (int64, 4 per pair): word edit distance, max(word lengths), character edit distance between
 * the tokens joined by single spaces, max(character lengths). */
static PyObject *edit_distances_of_texts(PyObject *self, PyObject *args) {
    PyObject *hyps, *refs, *out_obj;
    if (!PyArg_ParseTuple(args, "OOO", &hyps, &refs, &out_obj)) return NULL;
    PyObject *hf = PySequence_Fast(hyps, "hypotheses must be a sequence of str");
    if (!hf) return NULL;
    PyObject *rf = PySequence_Fast(refs, "references must be a sequence of str");
    if (!rf) { Py_DECREF(hf); return NULL; }
    Py_ssize_t k = PySequence_Fast_GET_SIZE(hf);
    Work w; memset(&w, 0, sizeof(w));
    Py_buffer view; view.obj = NULL;
    PyObject *result = NULL;
    uint32_t *ha = NULL, *ra = NULL;
    int64_t *row = NULL;
    size_t cap = 0;
    if (PySequence_Fast_GET_SIZE(rf) != k) {
        PyErr_SetString(PyExc_ValueError, "hypotheses and references differ in number");
        goto done;
    }
    if (PyObject_GetBuffer(out_obj, &view, PyBUF_WRITABLE | PyBUF_C_CONTIGUOUS) < 0) goto done;
    if (view.len != k * 4 * (Py_ssize_t)sizeof(int64_t)) {
        PyErr_SetString(PyExc_ValueError, "out must hold 4 int64 per pair");
        goto done;
    }
    int64_t *out = view.buf;
    for (Py_ssize_t j = 0; j < k; j++) {
        PyObject *h = PySequence_Fast_GET_ITEM(hf, j), *r = PySequence_Fast_GET_ITEM(rf, j);
        Py_ssize_t nh, nr;
        if (fill_pair_from_texts(h, r, &w, &nh, &nr) < 0) goto done;
        /* room: UTF-8 bytes bound the code points; tokens bound the words */
        Py_ssize_t hb = PyUnicode_GET_LENGTH(h) + 1, rb = PyUnicode_GET_LENGTH(r) + 1;
        size_t need = (size_t)(hb > rb ? hb : rb) + 1;
        if (need > cap) {
            size_t c = cap ? cap : 256;
            while (c < need) c *= 2;
            uint32_t *a = realloc(ha, c * sizeof(uint32_t));
            if (a) ha = a;
            uint32_t *b = realloc(ra, c * sizeof(uint32_t));
            if (b) ra = b;
            int64_t *d = realloc(row, (c + 1) * sizeof(int64_t));
            if (d) row = d;
            if (!a || !b || !d) { PyErr_NoMemory(); goto done; }
            cap = c;
        }
        if (work_reserve(&w, nh, nr) < 0) goto done;
        /* words: reference tokens interned, hypothesis tokens looked up (an unknown hypothesis
         * token equals no reference token, which is all the distance compares) */
        int64_t stats[2 + ORDER];
        score_pair(&w, nh, nr, stats); /* leaves the token ids in w.rid / w.hid */
        int64_t *o = out + 4 * j;
        if (nh == 0 || nr == 0) {
            o[0] = nh > nr ? nh : nr;
        } else {
            o[0] = levenshtein(w.hid, nh, w.rid, nr, row);
        }
        o[1] = nh > nr ? nh : nr;
        Py_ssize_t ch = joined_code_points(w.hyp, nh, ha), cr = joined_code_points(w.ref, nr, ra);
        o[2] = levenshtein(ha, ch, ra, cr, row);
        o[3] = ch > cr ? ch : cr;
    }
    result = Py_None; Py_INCREF(result);
done:
    if (view.obj) PyBuffer_Release(&view);
    free(ha); free(ra); free(row);
    work_free(&w);
    Py_DECREF(hf); Py_DECREF(rf);
    return result;
}

static PyMethodDef methods[] = {
    {"matches_of_tokens", matches_of_tokens, METH_VARARGS,
     "matches_of_tokens(hypotheses, references, out): per pair hyp length, ref length, clipped matches n=1..4 into out (int64, 6 per pair)."},
    {"matches_of_texts", matches_of_texts, METH_VARARGS,
     "matches_of_texts(hypotheses, references, out): the same for texts split as str.split()."},
    {"matches_of_arrow", matches_of_arrow, METH_VARARGS,
     "matches_of_arrow(h_lists, h_strs, h_data, r_lists, r_strs, r_data, out): the same from Arrow list<string> buffers."},
    {"edit_distances_of_texts", edit_distances_of_texts, METH_VARARGS,
     "edit_distances_of_texts(hypotheses, references, out): per pair word edit distance, max word length, character edit distance of the tokens joined by spaces, max character length (int64, 4 per pair)."},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_bleu",
                                    "Exact clipped n-gram matches for sentence BLEU (see analysis/bleu.py).", -1, methods};

PyMODINIT_FUNC PyInit__bleu(void) { return PyModule_Create(&module); }
