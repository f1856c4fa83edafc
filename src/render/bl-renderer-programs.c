/* bl-renderer-programs.c: the renderer's GLSL programs, compiled from GResource, and their uniforms. */
#include "config.h"

#include <string.h>

#include <epoxy/gl.h>
#include <gdk/gdk.h>

#include "bl-render-resources.h"
#include "bl-renderer-private.h"

static const char * const attr_names[N_ATTRS] = {
  "a_position", "a_normal", "a_model0", "a_model1", "a_model2", "a_model3",
  "a_normal0", "a_normal1", "a_normal2", "a_color", "a_link", "a_flags", "a_part",
};

/* ---- Programs ------------------------------------------------------------ */

static GLuint
compile_shader (GLenum       type,
                const char  *resource,
                const char  *defines,
                gboolean     use_es,
                GError     **error)
{
  g_autofree char *path = g_strconcat ("/app/ballast/Ballast/shaders/", resource, NULL);
  g_autoptr(GBytes) bytes = NULL;
  const char *sources[3];
  GLint lengths[3];
  GLuint shader;
  GLint ok = 0;

  bytes = g_resource_lookup_data (bl_render_get_resource (), path, G_RESOURCE_LOOKUP_FLAGS_NONE, error);
  if (bytes == NULL)
    return 0;
  sources[0] = use_es ? "#version 300 es\nprecision highp float;\nprecision highp int;\n"
                      : "#version 330 core\n";
  lengths[0] = (GLint) strlen (sources[0]);
  sources[1] = defines;
  lengths[1] = (GLint) strlen (defines);
  sources[2] = g_bytes_get_data (bytes, NULL);
  lengths[2] = (GLint) g_bytes_get_size (bytes);

  shader = glCreateShader (type);
  glShaderSource (shader, 3, sources, lengths);
  glCompileShader (shader);
  glGetShaderiv (shader, GL_COMPILE_STATUS, &ok);
  if (!ok)
    {
      GLint len = 0;
      g_autofree char *log = NULL;

      glGetShaderiv (shader, GL_INFO_LOG_LENGTH, &len);
      log = g_malloc0 (MAX (len, 1) + 1);
      glGetShaderInfoLog (shader, len, NULL, log);
      g_set_error (error, GDK_GL_ERROR, GDK_GL_ERROR_COMPILATION_FAILED,
                   "Compiling shader %s failed: %s", resource, log);
      glDeleteShader (shader);
      return 0;
    }
  return shader;
}

/* Links NAME.vert and NAME.frag with DEFINES (lines of #define) before both. */
gboolean
bl_program_init (BlProgram   *program,
                 const char  *name,
                 const char  *defines,
                 gboolean     use_es,
                 GError     **error)
{
  g_autofree char *vert = g_strconcat (name, ".vert", NULL);
  g_autofree char *frag = g_strconcat (name, ".frag", NULL);
  GLuint vs, fs, id;
  GLint ok = 0;

  vs = compile_shader (GL_VERTEX_SHADER, vert, defines, use_es, error);
  if (vs == 0)
    return FALSE;
  fs = compile_shader (GL_FRAGMENT_SHADER, frag, defines, use_es, error);
  if (fs == 0)
    {
      glDeleteShader (vs);
      return FALSE;
    }
  id = glCreateProgram ();
  glAttachShader (id, vs);
  glAttachShader (id, fs);
  for (int i = 0; i < N_ATTRS; i++)
    glBindAttribLocation (id, i, attr_names[i]);
  glLinkProgram (id);
  glGetProgramiv (id, GL_LINK_STATUS, &ok);
  glDetachShader (id, vs);
  glDetachShader (id, fs);
  glDeleteShader (vs);
  glDeleteShader (fs);
  if (!ok)
    {
      GLint len = 0;
      g_autofree char *log = NULL;

      glGetProgramiv (id, GL_INFO_LOG_LENGTH, &len);
      log = g_malloc0 (MAX (len, 1) + 1);
      glGetProgramInfoLog (id, len, NULL, log);
      g_set_error (error, GDK_GL_ERROR, GDK_GL_ERROR_COMPILATION_FAILED,
                   "Linking the viewport shaders (%s) failed: %s", name, log);
      glDeleteProgram (id);
      return FALSE;
    }

  /* −1 for a uniform that this program does not use: glUniform ignores it. */
  program->id = id;
  program->u_view_projection = glGetUniformLocation (id, "u_view_projection");
  program->u_mode = glGetUniformLocation (id, "u_mode");
  program->u_eye = glGetUniformLocation (id, "u_eye");
  program->u_alpha = glGetUniformLocation (id, "u_alpha");
  program->u_selected = glGetUniformLocation (id, "u_selected");
  program->u_hovered = glGetUniformLocation (id, "u_hovered");
  program->u_selection_color = glGetUniformLocation (id, "u_selection_color");
  program->u_selection_mix = glGetUniformLocation (id, "u_selection_mix");
  program->u_com_dark = glGetUniformLocation (id, "u_com_dark");
  program->u_marker_scale = glGetUniformLocation (id, "u_marker_scale");
  program->u_selected_collision = glGetUniformLocation (id, "u_selected_collision");
  program->u_collision_mix = glGetUniformLocation (id, "u_collision_mix");
  program->u_background = glGetUniformLocation (id, "u_background");
  program->u_dim_mix = glGetUniformLocation (id, "u_dim_mix");
  return TRUE;
}

void
bl_renderer_delete_programs (BlRenderer *self)
{
  glDeleteProgram (self->general.id);
  for (int v = 0; v < 2; v++)
    {
      glDeleteProgram (self->shell[v].id);
      glDeleteProgram (self->rings[v].id);
    }
  for (int b = 0; b < N_BODY_PROGRAMS; b++)
    glDeleteProgram (self->body[b].id);
}

gboolean
bl_renderer_gl_is_software (void)
{
  const char *renderer = (const char *) glGetString (GL_RENDERER);

  return renderer != NULL && (strstr (renderer, "llvmpipe") != NULL || strstr (renderer, "softpipe") != NULL);
}

/* Binds PROGRAM with this frame's camera and highlight uniforms. */
void
bl_program_use (const BlProgram       *program,
                mat4                   vp,
                const float            eye[3],
                const BlRenderOptions *options)
{
  glUseProgram (program->id);
  glUniformMatrix4fv (program->u_view_projection, 1, GL_FALSE, (const float *) vp);
  glUniform3fv (program->u_eye, 1, eye);
  glUniform1f (program->u_selected, (float) options->selected);
  glUniform1f (program->u_hovered, (float) options->hovered);
  glUniform3fv (program->u_selection_color, 1, bl_render_selection_color);
  glUniform1f (program->u_selection_mix, BL_RENDER_SELECTION_MIX);
  glUniform1f (program->u_selected_collision, (float) options->selected_collision);
  glUniform1f (program->u_collision_mix, BL_RENDER_COLLISION_MIX);
  glUniform3fv (program->u_background, 1, bl_render_background_color);
  glUniform1f (program->u_dim_mix, BL_RENDER_DIM_MIX);
}
