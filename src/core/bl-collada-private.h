/* bl-collada-private.h: what a COLLADA file's node instancing amounts to. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* The most scene nodes a COLLADA file may make once its <instance_node>s
 * are expanded.  assimp copies the whole subtree of a node at each
 * <instance_node> naming it, so 2 KB of nodes each instancing the one
 * before twice make 2^23 nodes of about 1 KB each (8 GB).  Real meshes
 * have tens to thousands of nodes. */
#define BL_COLLADA_MAX_NODES 100000

/* Reads the COLLADA document on FD (which stays open, its position moved)
 * with libxml2, without building it, and counts the nodes of its visual
 * scenes as assimp builds them: a <node> counts once, plus its child
 * nodes, plus, for each <instance_node>, every node of the subtree it
 * names (resolved as assimp resolves it: by id, then by name).  FALSE
 * with *why (free it) when that count passes max_nodes or the instances
 * form a cycle (assimp would recurse until its stack ends), or an element
 * has more than BL_TINYXML_MAX_ATTRIBUTES attributes (before libxml2,
 * whose check of them is quadratic, reads it).  A file that
 * libxml2 cannot read to the end is counted as far as it was read: assimp
 * gives its own error for it. */
gboolean bl_collada_check_instancing (int       fd,
                                      guint64   max_nodes,
                                      char    **why);

G_END_DECLS
