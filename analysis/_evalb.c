/* GEIG/PARSEVAL counts of two bracketed files in EVALB's one-tree-per-line layout, in one pass.
 *
 * Why C: `evalhouse evalb` must print EVALB's report in a small multiple of EVALB's own time
 * (at most 5x the C program, whole process). EVALB reads a 3,914-tree file pair in
 * about 0.04 s; the Python reader and scorer (loaders/brackets.py, analysis/parse_eval.py) take
 * about 1.3 s for the same pair, nearly all of it per-token interpreter work.
 *
 * This is an accelerator, not a second definition. Every rule it applies is the Python one, which
 * is C EVALB's (analysis/parse_eval.py's docstring lists them):
 *   - lines, tokens and trees exactly as loaders/brackets.read_trees(one_per_line=True) reads
 *     Penn Treebank lines (tokens `(`, `)` and runs of other characters, white space as C's isspace,
 *     the unlabelled `( ... )` wrapper a bracket labelled '');
 *   - every label is classified by a Python callable (EvalbParams.classify), called once per distinct
 *     label: ids and EQ_LABEL masks of the label as written and of its cut form, DELETE_LABEL,
 *     DELETE_LABEL_FOR_LENGTH, QUOTE_LABEL;
 *   - words that differ are compared again by a Python callable when EQ_WORD is in force;
 *   - preparation, the quote terms' reinsertion (fix_quote) and comparison are those of
 *     analysis/parse_eval.prepare(), fix_quote() and compare(): each gold bracket, in order, takes the
 *     first unmatched test bracket with its span and an equal label.
 * Whenever a line is not a well-formed Penn Treebank line (Sampson & Babarczy's (2003) square notation, or any input
 * error), or the two files have different numbers of lines, it returns None and the caller uses the
 * Python path, which reads the files again and reports the error exactly as before.
 * tests/test_parses_fast.py checks that both paths give the same counts (random trees, EVALB's
 * sample, the PTB sample against a perturbed copy), tests/test_evalb_c.py that the report is the C
 * program's.
 *
 * Output: bytes, 9 int32 per sentence: status (0 ok, 1 error, 2 skip), length (EVALB's Len.),
 * words, gold brackets, test brackets, matched labelled, matched unlabelled, crossing, correct tags.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define NCOLS 9
#define STATUS_OK 0
#define STATUS_ERROR 1
#define STATUS_SKIP 2

/* ---- growable int arrays ------------------------------------------------------------------- */

typedef struct {
    int32_t *v;
    Py_ssize_t n, cap;
} IntVec;

static int iv_reserve(IntVec *a, Py_ssize_t need) {
    if (need <= a->cap) return 0;
    Py_ssize_t c = a->cap ? a->cap : 64;
    while (c < need) c *= 2;
    int32_t *p = realloc(a->v, (size_t)c * sizeof(int32_t));
    if (!p) { PyErr_NoMemory(); return -1; }
    a->v = p; a->cap = c;
    return 0;
}

static inline int iv_push(IntVec *a, int32_t x) {
    if (a->n == a->cap && iv_reserve(a, a->n + 1) < 0) return -1;
    a->v[a->n++] = x;
    return 0;
}

/* insert x at position k (0 <= k <= n) */
static int iv_insert(IntVec *a, Py_ssize_t k, int32_t x) {
    if (iv_reserve(a, a->n + 1) < 0) return -1;
    memmove(a->v + k + 1, a->v + k, (size_t)(a->n - k) * sizeof(int32_t));
    a->v[k] = x;
    a->n++;
    return 0;
}

/* ---- distinct labels, classified once by Python ------------------------------------------- */

typedef struct {
    int32_t id;        /* the label as written: equal ids, equal strings */
    uint64_t left, right;  /* EQ_LABEL pairs it is the first / second label of */
} Name;

typedef struct {
    Name raw;          /* as written (a POS is compared as written) */
    Name cut;          /* cut at the first - or = (a bracket's label) */
    int32_t deleted;   /* as a POS: in DELETE_LABEL */
    int32_t uncounted; /* as a POS: in DELETE_LABEL_FOR_LENGTH */
    int32_t quote;     /* as a POS: a QUOTE_LABEL */
    int32_t cut_deleted;  /* as a bracket: its cut label equals a DELETE_LABEL (EQ_LABEL included) */
    int32_t unlabelled;   /* the empty label of `( ...)` */
} Label;

typedef struct {
    uint64_t hash;
    const Py_UCS4 *p;
    Py_ssize_t n;
    int32_t index;    /* into Labels.info; -1: free slot */
} Slot;

typedef struct {
    Slot *slots;
    size_t cap, count;
    Label *info;      /* dense, by index (indices stay valid when the arrays grow) */
    PyObject *classify;
} Labels;

/* label_comp(): equal, or an EQ_LABEL pair in either order */
static inline int names_equal(const Name *a, const Name *b) {
    return a->id == b->id || (a->left & b->right) || (a->right & b->left);
}

static uint64_t hash_ucs4(const Py_UCS4 *p, Py_ssize_t n) {
    uint64_t h = 1469598103934665603ULL ^ (uint64_t)n;
    for (Py_ssize_t i = 0; i < n; i++) { h ^= p[i]; h *= 1099511628211ULL; }
    h ^= h >> 29;
    return h;
}

static int labels_grow(Labels *t) {
    size_t cap = t->cap ? 2 * t->cap : 256;
    Slot *slots = malloc(cap * sizeof(Slot));
    Label *info = realloc(t->info, cap * sizeof(Label));
    if (!slots || !info) { free(slots); if (info) t->info = info; PyErr_NoMemory(); return -1; }
    t->info = info;
    for (size_t j = 0; j < cap; j++) slots[j].index = -1;
    for (size_t i = 0; i < t->cap; i++) {
        if (t->slots[i].index < 0) continue;
        size_t j = t->slots[i].hash & (cap - 1);
        while (slots[j].index >= 0) j = (j + 1) & (cap - 1);
        slots[j] = t->slots[i];
    }
    free(t->slots);
    t->slots = slots;
    t->cap = cap;
    return 0;
}

/* the index of label p[0:n], classifying it through Python the first time; -1 on error */
static int32_t label_of(Labels *t, const Py_UCS4 *p, Py_ssize_t n) {
    if (2 * (t->count + 1) > t->cap && labels_grow(t) < 0) return -1;
    uint64_t h = hash_ucs4(p, n);
    size_t j = h & (t->cap - 1);
    while (t->slots[j].index >= 0) {
        Slot *e = &t->slots[j];
        if (e->hash == h && e->n == n && memcmp(e->p, p, (size_t)n * sizeof(Py_UCS4)) == 0) return e->index;
        j = (j + 1) & (t->cap - 1);
    }
    PyObject *s = PyUnicode_FromKindAndData(PyUnicode_4BYTE_KIND, p, n);
    if (!s) return -1;
    PyObject *r = PyObject_CallOneArg(t->classify, s);
    Py_DECREF(s);
    if (!r) return -1;
    Label l;
    int raw_id = 0, cut_id = 0, deleted = 0, uncounted = 0, quote = 0, cut_deleted = 0;
    unsigned long long raw_l = 0, raw_r = 0, cut_l = 0, cut_r = 0;
    if (!PyArg_ParseTuple(r, "iKKpppiKKp", &raw_id, &raw_l, &raw_r, &deleted, &uncounted, &quote, &cut_id, &cut_l,
                          &cut_r, &cut_deleted)) {
        Py_DECREF(r);
        return -1;
    }
    Py_DECREF(r);
    l.raw.id = raw_id; l.raw.left = raw_l; l.raw.right = raw_r;
    l.cut.id = cut_id; l.cut.left = cut_l; l.cut.right = cut_r;
    l.deleted = deleted; l.uncounted = uncounted; l.quote = quote; l.cut_deleted = cut_deleted;
    l.unlabelled = n == 0;
    int32_t index = (int32_t)t->count++;
    t->info[index] = l;
    Slot *e = &t->slots[j];
    e->hash = h; e->p = p; e->n = n; e->index = index;
    return index;
}

/* ---- one line as a tree ---------------------------------------------------------------------- */

typedef struct {
    /* every word: start and length in the text, POS label (index into Labels.info) */
    IntVec wstart, wlen, pos;
    /* nonterminals in the order they open: label, parent, start, end (over all words) */
    IntVec nlab, parent, start, end;
    /* after preparation: kept words (indices into the word arrays) and their POS labels; every bracket
       with its span over the kept words (fix_quote moves spans; deletions are decided after it) */
    IntVec kept, kpos, bs, be, before;
    /* quote terms: place among the kept words, word index, brackets opened before, and the brackets
       open around it (qends[qoff .. qoff + qlen]) */
    IntVec qplace, qword, qopened, qoff, qlen, qends;
    int length;   /* EVALB's Len. */
    /* parser stack: label, node (-1: none yet), first word, has a word, has children */
    IntVec st_label, st_node, st_start, st_word, st_children;
} Tree;

static void tree_free(Tree *t) {
    IntVec *vs[] = {&t->wstart, &t->wlen, &t->pos, &t->nlab, &t->parent, &t->start, &t->end, &t->kept,
                    &t->kpos, &t->bs, &t->be, &t->before, &t->qplace, &t->qword, &t->qopened, &t->qoff,
                    &t->qlen, &t->qends, &t->st_label, &t->st_node, &t->st_start, &t->st_word, &t->st_children};
    for (size_t i = 0; i < sizeof(vs) / sizeof(vs[0]); i++) free(vs[i]->v);
    memset(t, 0, sizeof(*t));
}

/* isspace() in the C locale, as EVALB and the loader read white space */
#define IS_SPACE(c) ((c) == ' ' || (c) == '\t' || (c) == '\n' || (c) == '\r' || (c) == '\v' || (c) == '\f')
#define IS_TERM(c) ((c) == '(' || (c) == ')' || IS_SPACE(c))

/* Parse text[a:b] (already stripped, not starting with '[') as _finish_ptb does.
   Returns 0 (parsed), 1 (not a well-formed line: the caller declines), -1 (Python error). */
static int parse_line(const Py_UCS4 *text, Py_ssize_t a, Py_ssize_t b, Tree *t, Labels *labels) {
    t->wstart.n = t->wlen.n = t->pos.n = 0;
    t->nlab.n = t->parent.n = t->start.n = t->end.n = 0;
    t->st_label.n = t->st_node.n = t->st_start.n = t->st_word.n = t->st_children.n = 0;
    Py_ssize_t sp = 0;
    Py_ssize_t i = a;
    static const Py_UCS4 nothing[1] = {0};
    while (i < b) {
        Py_UCS4 c = text[i];
        if (IS_SPACE(c)) { i++; continue; }
        if (c == '(') {
            i++;
            while (i < b && IS_SPACE(text[i])) i++;
            if (i < b && text[i] == ')') return 1;  /* empty brackets '()' */
            int32_t lab;
            if (i < b && text[i] != '(') {
                Py_ssize_t s = i;
                while (i < b && !IS_TERM(text[i])) i++;
                lab = label_of(labels, text + s, i - s);
            } else {
                lab = label_of(labels, nothing, 0);
            }
            if (lab < 0) return -1;
            if (sp > 0) {
                Py_ssize_t top = sp - 1;
                if (t->st_word.v[top]) return 1;  /* a preterminal also holding a constituent */
                if (t->st_node.v[top] < 0) {      /* the parent turns out to be a nonterminal */
                    t->st_node.v[top] = (int32_t)t->nlab.n;
                    int32_t grand = top > 0 ? t->st_node.v[top - 1] : -1;
                    if (iv_push(&t->nlab, t->st_label.v[top]) < 0 || iv_push(&t->parent, grand) < 0 ||
                        iv_push(&t->start, t->st_start.v[top]) < 0 || iv_push(&t->end, -1) < 0)
                        return -1;
                }
                t->st_children.v[top] = 1;
            }
            if (iv_push(&t->st_label, lab) < 0 || iv_push(&t->st_node, -1) < 0 ||
                iv_push(&t->st_start, (int32_t)t->wstart.n) < 0 || iv_push(&t->st_word, 0) < 0 ||
                iv_push(&t->st_children, 0) < 0)
                return -1;
            sp++;
            continue;
        }
        if (c == ')') {
            if (sp == 0) return 1;  /* closes a bracket never opened */
            sp--;
            t->st_label.n = t->st_node.n = t->st_start.n = t->st_word.n = t->st_children.n = sp;
            if (!t->st_word.v[sp] && !t->st_children.v[sp]) return 1;  /* a constituent with no words */
            if (t->st_node.v[sp] >= 0) t->end.v[t->st_node.v[sp]] = (int32_t)t->wstart.n;
            i++;
            continue;
        }
        /* a word */
        Py_ssize_t s = i;
        while (i < b && !IS_TERM(text[i])) i++;
        if (sp == 0) return 1;  /* outside any bracket */
        Py_ssize_t top = sp - 1;
        /* beside constituents, a second word, or no part-of-speech label */
        if (t->st_children.v[top] || t->st_word.v[top] || labels->info[t->st_label.v[top]].unlabelled) return 1;
        t->st_word.v[top] = 1;
        if (iv_push(&t->pos, t->st_label.v[top]) < 0 || iv_push(&t->wstart, (int32_t)s) < 0 ||
            iv_push(&t->wlen, (int32_t)(i - s)) < 0)
            return -1;
    }
    if (sp > 0) return 1;  /* never closed */
    /* an unlabelled node is the wrapper: at the root or below another unlabelled node (_check_unlabelled) */
    for (Py_ssize_t k = 0; k < t->nlab.n; k++) {
        if (labels->info[t->nlab.v[k]].unlabelled) {
            int32_t p = t->parent.v[k];
            if (p != -1 && !labels->info[t->nlab.v[p]].unlabelled) return 1;
        }
    }
    return 0;
}

static inline int is_quote_word(const Py_UCS4 *text, const Tree *t, Py_ssize_t w) {
    if (t->wlen.v[w] != 1) return 0;
    Py_UCS4 c = text[t->wstart.v[w]];
    return c == '\'' || c == '"' || c == '/';
}

/* prepare(): kept words and their POS, quote terms, every bracket's span over the kept words */
static int prepare_tree(const Py_UCS4 *text, Tree *t, const Labels *labels) {
    Py_ssize_t nw = t->wstart.n, nn = t->nlab.n;
    t->length = 0;
    t->kept.n = t->kpos.n = t->bs.n = t->be.n = 0;
    t->qplace.n = t->qword.n = t->qopened.n = t->qoff.n = t->qlen.n = t->qends.n = 0;
    if (iv_reserve(&t->before, nw + 1) < 0) return -1;
    t->before.v[0] = 0;
    for (Py_ssize_t i = 0; i < nw; i++) {
        const Label *p = &labels->info[t->pos.v[i]];
        if (!p->uncounted) t->length++;
        if (p->quote && is_quote_word(text, t, i)) {
            /* brackets opened before word i (starts never decrease), and those open around it */
            int32_t opened = 0;
            while (opened < nn && t->start.v[opened] <= i) opened++;
            if (iv_push(&t->qplace, t->before.v[i]) < 0 || iv_push(&t->qword, (int32_t)i) < 0 ||
                iv_push(&t->qopened, opened) < 0 || iv_push(&t->qoff, (int32_t)t->qends.n) < 0)
                return -1;
            int32_t around = 0;
            for (int32_t k = 0; k < opened; k++)
                if (t->end.v[k] > i) {
                    if (iv_push(&t->qends, k) < 0) return -1;
                    around++;
                }
            if (iv_push(&t->qlen, around) < 0) return -1;
        }
        if (p->deleted) {
            t->before.v[i + 1] = t->before.v[i];
            continue;
        }
        t->before.v[i + 1] = t->before.v[i] + 1;
        if (iv_push(&t->kept, (int32_t)i) < 0 || iv_push(&t->kpos, t->pos.v[i]) < 0) return -1;
    }
    if (iv_reserve(&t->bs, nn) < 0 || iv_reserve(&t->be, nn) < 0) return -1;
    for (Py_ssize_t k = 0; k < nn; k++) {
        t->bs.v[k] = t->before.v[t->start.v[k]];
        t->be.v[k] = t->before.v[t->end.v[k]];
    }
    t->bs.n = t->be.n = nn;
    return 0;
}

/* reinsert_term(): quote term q of tree t back among its kept words, at its current place */
static int reinsert(Tree *t, Py_ssize_t q) {
    int32_t place = t->qplace.v[q], w = t->qword.v[q];
    if (iv_insert(&t->kept, place, w) < 0 || iv_insert(&t->kpos, place, t->pos.v[w]) < 0) return -1;
    for (Py_ssize_t k = t->qopened.v[q]; k < t->nlab.n; k++) { t->bs.v[k]++; t->be.v[k]++; }
    for (int32_t k = 0; k < t->qlen.v[q]; k++) t->be.v[t->qends.v[t->qoff.v[q] + k]]++;
    return 0;
}

/* fix_quote(), the loop of evalb.c (see analysis/parse_eval.fix_quote) */
static int fix_quote(Tree *g, Tree *t, const Labels *labels) {
    for (Py_ssize_t i = 0; i < t->qplace.n; i++) {
        int32_t place = t->qplace.v[i];
        const Label *tl = &labels->info[t->pos.v[t->qword.v[i]]];
        for (Py_ssize_t j = 0; j < g->qplace.n; j++) {
            const Label *gl = &labels->info[g->pos.v[g->qword.v[j]]];
            if (g->qplace.v[j] != place || gl->raw.id == tl->raw.id) continue;
            if (gl->deleted && !tl->deleted) {
                if (reinsert(g, j) < 0) return -1;
                for (Py_ssize_t k = j; k < g->qplace.n; k++) g->qplace.v[k]++;
            } else if (tl->deleted && !gl->deleted) {
                if (reinsert(t, i) < 0) return -1;
                for (Py_ssize_t k = i; k < t->qplace.n; k++) t->qplace.v[k]++;
            }
        }
    }
    return 0;
}

static int words_equal(const Py_UCS4 *gt, const Tree *g, const Py_UCS4 *tt, const Tree *t, Py_ssize_t k,
                       PyObject *word_equal) {
    int32_t gi = g->kept.v[k], ti = t->kept.v[k];
    int32_t gn = g->wlen.v[gi], tn = t->wlen.v[ti];
    const Py_UCS4 *gp = gt + g->wstart.v[gi], *tp = tt + t->wstart.v[ti];
    if (gn == tn && memcmp(gp, tp, (size_t)gn * sizeof(Py_UCS4)) == 0) return 1;
    if (word_equal == Py_None) return 0;
    PyObject *a = PyUnicode_FromKindAndData(PyUnicode_4BYTE_KIND, gp, gn);
    PyObject *b = a ? PyUnicode_FromKindAndData(PyUnicode_4BYTE_KIND, tp, tn) : NULL;
    PyObject *r = b ? PyObject_CallFunctionObjArgs(word_equal, a, b, NULL) : NULL;
    Py_XDECREF(a); Py_XDECREF(b);
    if (!r) return -1;
    int ok = PyObject_IsTrue(r);
    Py_DECREF(r);
    return ok;
}

/* massage_data(): whether bracket k counts (not over zero words, its label not deleted) */
static inline int counted(const Tree *t, const Labels *labels, Py_ssize_t k) {
    return t->bs.v[k] != t->be.v[k] && !labels->info[t->nlab.v[k]].cut_deleted;
}

/* compare(): one output row */
static int compare_trees(const Py_UCS4 *gt, Tree *g, const Py_UCS4 *tt, Tree *t, const Labels *labels,
                         PyObject *word_equal, int32_t *row, IntVec *used_l, IntVec *used_u) {
    memset(row, 0, NCOLS * sizeof(int32_t));
    row[1] = g->length;
    row[2] = (int32_t)g->kept.n;
    if (t->kept.n == 0) { row[0] = STATUS_SKIP; return 0; }
    if (g->kept.n != t->kept.n) {
        if (fix_quote(g, t, labels) < 0) return -1;
        row[2] = (int32_t)g->kept.n;
        if (g->kept.n != t->kept.n) { row[0] = STATUS_ERROR; return 0; }
    }
    Py_ssize_t nw = g->kept.n;
    for (Py_ssize_t k = 0; k < nw; k++) {
        int eq = words_equal(gt, g, tt, t, k, word_equal);
        if (eq < 0) return -1;
        if (!eq) { row[0] = STATUS_ERROR; return 0; }
    }
    Py_ssize_t ng = g->nlab.n, nt = t->nlab.n;
    if (iv_reserve(used_l, nt) < 0 || iv_reserve(used_u, nt) < 0) return -1;
    /* 1: matched, 2: not counted */
    int32_t gold = 0, test = 0, ml = 0, mu = 0, crossing = 0, tags = 0;
    for (Py_ssize_t j = 0; j < nt; j++) {
        int32_t c = counted(t, labels, j) ? 0 : 2;
        used_l->v[j] = used_u->v[j] = c;
        test += c == 0;
    }
    /* each counted gold bracket, in order, takes the first free test bracket with its span (and label) */
    for (Py_ssize_t i = 0; i < ng; i++) {
        if (!counted(g, labels, i)) continue;
        gold++;
        int32_t s = g->bs.v[i], e = g->be.v[i];
        const Name *lab = &labels->info[g->nlab.v[i]].cut;
        int found_l = 0, found_u = 0;
        for (Py_ssize_t j = 0; j < nt && !(found_l && found_u); j++) {
            if (t->bs.v[j] != s || t->be.v[j] != e) continue;
            if (!found_u && !used_u->v[j]) { used_u->v[j] = 1; found_u = 1; mu++; }
            if (!found_l && !used_l->v[j] && names_equal(lab, &labels->info[t->nlab.v[j]].cut)) {
                used_l->v[j] = 1; found_l = 1; ml++;
            }
        }
    }
    /* a test bracket crossing some gold bracket; one with the span of a gold bracket crosses none
       (gold brackets are nested or disjoint), so the unlabelled matches need no search */
    for (Py_ssize_t j = 0; j < nt; j++) {
        if (used_u->v[j]) continue;
        int32_t s = t->bs.v[j], e = t->be.v[j];
        for (Py_ssize_t i = 0; i < ng; i++) {
            int32_t gs = g->bs.v[i], ge = g->be.v[i];
            if (((gs < s && s < ge && ge < e) || (s < gs && gs < e && e < ge)) && counted(g, labels, i)) {
                crossing++;
                break;
            }
        }
    }
    for (Py_ssize_t k = 0; k < nw; k++)
        tags += names_equal(&labels->info[g->kpos.v[k]].raw, &labels->info[t->kpos.v[k]].raw);
    row[0] = STATUS_OK;
    row[3] = gold; row[4] = test; row[5] = ml; row[6] = mu; row[7] = crossing; row[8] = tags;
    return 0;
}

/* the next line [*a, *b) stripped; returns the position after it */
static Py_ssize_t next_line(const Py_UCS4 *text, Py_ssize_t n, Py_ssize_t pos, Py_ssize_t *a, Py_ssize_t *b) {
    Py_ssize_t end = pos;
    while (end < n && text[end] != '\n') end++;
    Py_ssize_t s = pos, e = end;
    while (s < e && IS_SPACE(text[s])) s++;
    while (e > s && IS_SPACE(text[e - 1])) e--;
    *a = s; *b = e;
    return end + 1;
}

/* -1: Python error; 1: decline; 0: tree ready */
static int read_tree(const Py_UCS4 *text, Py_ssize_t a, Py_ssize_t b, Tree *t, Labels *labels) {
    if (a == b) {  /* an empty line: an empty parse */
        t->wstart.n = t->wlen.n = t->pos.n = t->nlab.n = t->parent.n = t->start.n = t->end.n = 0;
    } else {
        if (text[a] == '[') return 1;  /* Sampson & Babarczy's (2003) notation: the Python path */
        int r = parse_line(text, a, b, t, labels);
        if (r) return r;
    }
    return prepare_tree(text, t, labels) < 0 ? -1 : 0;
}

static PyObject *geig_lines(PyObject *self, PyObject *args) {
    PyObject *gold_text, *test_text, *classify, *word_equal;
    if (!PyArg_ParseTuple(args, "UUOO", &gold_text, &test_text, &classify, &word_equal)) return NULL;
    Py_UCS4 *gt = PyUnicode_AsUCS4Copy(gold_text);
    if (!gt) return NULL;
    Py_UCS4 *tt = PyUnicode_AsUCS4Copy(test_text);
    if (!tt) { PyMem_Free(gt); return NULL; }
    Py_ssize_t gn = PyUnicode_GET_LENGTH(gold_text), tn = PyUnicode_GET_LENGTH(test_text);
    PyObject *result = NULL;
    Labels labels = {NULL, 0, 0, NULL, classify};
    Tree g, t;
    memset(&g, 0, sizeof(g));
    memset(&t, 0, sizeof(t));
    IntVec used_l = {0}, used_u = {0};
    IntVec rows = {0};
    Py_ssize_t gp = 0, tp = 0;
    /* a text of n characters has a line at every position < n (the last may lack its '\n') */
    while (gp < gn || tp < tn) {
        if (gp >= gn || tp >= tn) { result = Py_NewRef(Py_None); goto done; }  /* line counts differ */
        Py_ssize_t ga, gb, ta, tb;
        gp = next_line(gt, gn, gp, &ga, &gb);
        tp = next_line(tt, tn, tp, &ta, &tb);
        int r = read_tree(gt, ga, gb, &g, &labels);
        if (r == 0) r = read_tree(tt, ta, tb, &t, &labels);
        if (r < 0) goto done;
        if (r > 0) { result = Py_NewRef(Py_None); goto done; }
        if (iv_reserve(&rows, rows.n + NCOLS) < 0) goto done;
        if (compare_trees(gt, &g, tt, &t, &labels, word_equal, rows.v + rows.n, &used_l, &used_u) < 0) goto done;
        rows.n += NCOLS;
    }
    result = PyBytes_FromStringAndSize((const char *)rows.v, (Py_ssize_t)((size_t)rows.n * sizeof(int32_t)));
done:
    free(rows.v);
    free(used_l.v); free(used_u.v);
    tree_free(&g); tree_free(&t);
    free(labels.slots);
    free(labels.info);
    PyMem_Free(gt); PyMem_Free(tt);
    return result;
}

static PyMethodDef methods[] = {
    {"geig_lines", geig_lines, METH_VARARGS,
     "geig_lines(gold_text, test_text, classify, word_equal): EVALB's per-sentence counts of two texts "
     "with one Penn Treebank tree per line (bytes, 9 int32 a sentence), or None where the Python path "
     "must read the files (another notation, an input error, different line counts). classify(label) "
     "-> (id, EQ left mask, EQ right mask, deleted, not counted for length, quote label, then id and masks "
     "of the cut label, cut label deleted); word_equal(gold, test) -> bool, or None."},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_evalb",
                                    "EVALB's per-sentence counts of one-tree-per-line files (see analysis/parse_eval.py).",
                                    -1, methods};

PyMODINIT_FUNC PyInit__evalb(void) { return PyModule_Create(&module); }
