// sdf-links: load one SDF file with libsdformat 15 as gz-sim loads it and
// print every link's mass properties, one JSON object on stdout.
//
// Not part of Ballast's build: see README.md beside this file for how to
// build libsdformat 15 and this program.
//
// What gz-sim does, and so what this does:
//  - every directory of GZ_SIM_RESOURCE_PATH (then SDF_PATH) is a
//    "model://" path (gz::sim::addResourcePaths), and the find-file
//    callback looks for a URI, its scheme stripped, under each of them
//    (gz-common's findFile over the resource paths); libsdformat's own
//    findFile also reads SDF_PATH;
//  - Root::Load with automatic inertia skipped in Load, then
//    Root::ResolveAutoInertials (ServerPrivate::LoadSdfRootHelper). No mesh
//    inertia calculator is registered (gz-sim's needs gz-common): an
//    automatic link with a mesh collision gets what libsdformat gives
//    without one, and the comparison reports it apart.
//
// Output: {"file": …, "errors": [{"code": N, "message": …}],
//          "links": [{"name": "model::nested::link", "mass": m,
//                     "com": [x, y, z], "inertia": [ixx, iyy, izz, ixy, ixz, iyz],
//                     "auto": bool, "mesh_auto": bool}]}
// com is the centre of mass in the frame of the top model (a file holding
// a model) or of the world; inertia is about the centre of mass in that
// frame's axes.

#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <vector>
#include <sys/stat.h>

#include <gz/math/Inertial.hh>
#include <gz/math/Matrix3.hh>
#include <gz/math/Pose3.hh>
#include <sdf/Collision.hh>
#include <sdf/Geometry.hh>
#include <sdf/Link.hh>
#include <sdf/Model.hh>
#include <sdf/ParserConfig.hh>
#include <sdf/Root.hh>
#include <sdf/World.hh>

namespace
{

std::vector<std::string> splitPath(const char *_env)
{
  std::vector<std::string> out;
  const char *value = std::getenv(_env);
  if (value == nullptr)
    return out;
  std::string s(value);
  size_t start = 0;
  while (start <= s.size())
  {
    size_t end = s.find(':', start);
    if (end == std::string::npos)
      end = s.size();
    if (end > start)
      out.push_back(s.substr(start, end - start));
    start = end + 1;
  }
  return out;
}

bool exists(const std::string &_path)
{
  struct stat st;
  return stat(_path.c_str(), &st) == 0;
}

void printString(const std::string &_s)
{
  std::putchar('"');
  for (unsigned char c : _s)
  {
    if (c == '"' || c == '\\')
      std::printf("\\%c", c);
    else if (c < 0x20)
      std::printf("\\u%04x", c);
    else
      std::putchar(c);
  }
  std::putchar('"');
}

void printNumbers(const double *_v, int _n)
{
  std::putchar('[');
  for (int i = 0; i < _n; ++i)
    std::printf("%s%.17g", i ? "," : "", _v[i]);
  std::putchar(']');
}

bool first = true;

void printLink(const std::string &_scope, const sdf::Link &_link,
               const gz::math::Pose3d &_X_TM)
{
  gz::math::Pose3d X_ML;
  sdf::Errors errors = _link.SemanticPose().Resolve(X_ML);
  gz::math::Pose3d X_TL = _X_TM * X_ML;
  const gz::math::Inertiald &inertial = _link.Inertial();
  gz::math::Pose3d X_TI = X_TL * inertial.Pose();
  gz::math::Matrix3d R(X_TI.Rot());
  gz::math::Matrix3d I = R * inertial.MassMatrix().Moi() * R.Transposed();

  bool isAuto = _link.AutoInertia();
  bool meshAuto = false;
  for (uint64_t i = 0; i < _link.CollisionCount(); ++i)
  {
    const sdf::Geometry *geom = _link.CollisionByIndex(i)->Geom();
    if (geom && geom->Type() == sdf::GeometryType::MESH)
      meshAuto = isAuto;
  }

  double com[3] = {X_TI.Pos().X(), X_TI.Pos().Y(), X_TI.Pos().Z()};
  double moi[6] = {I(0, 0), I(1, 1), I(2, 2), I(0, 1), I(0, 2), I(1, 2)};
  double mass = inertial.MassMatrix().Mass();

  std::printf("%s\n{\"name\":", first ? "" : ",");
  first = false;
  printString(_scope + _link.Name());
  std::printf(",\"mass\":%.17g,\"com\":", mass);
  printNumbers(com, 3);
  std::printf(",\"inertia\":");
  printNumbers(moi, 6);
  std::printf(",\"auto\":%s,\"mesh_auto\":%s,\"pose_errors\":%zu}",
              isAuto ? "true" : "false", meshAuto ? "true" : "false",
              errors.size());
}

void printModel(const std::string &_scope, const sdf::Model &_model,
                const gz::math::Pose3d &_X_TM)
{
  std::string scope = _scope + _model.Name() + "::";
  for (uint64_t i = 0; i < _model.LinkCount(); ++i)
    printLink(scope, *_model.LinkByIndex(i), _X_TM);
  for (uint64_t i = 0; i < _model.ModelCount(); ++i)
  {
    const sdf::Model *nested = _model.ModelByIndex(i);
    gz::math::Pose3d X_MN;
    nested->SemanticPose().Resolve(X_MN);
    printModel(scope, *nested, _X_TM * X_MN);
  }
}

}  // namespace

int main(int _argc, char **_argv)
{
  if (_argc != 2)
  {
    std::fprintf(stderr, "usage: %s FILE.sdf\n", _argv[0]);
    return 2;
  }

  std::vector<std::string> paths = splitPath("GZ_SIM_RESOURCE_PATH");
  for (const std::string &p : splitPath("SDF_PATH"))
    paths.push_back(p);

  sdf::ParserConfig config = sdf::ParserConfig::GlobalConfig();
  config.SetStoreResolvedURIs(true);
  config.SetCalculateInertialConfiguration(
      sdf::ConfigureResolveAutoInertials::SKIP_CALCULATION_IN_LOAD);
  for (const std::string &p : paths)
    config.AddURIPath("model://", p);
  config.SetFindCallback([paths](const std::string &_uri) -> std::string
  {
    std::string name = _uri;
    size_t sep = name.find("://");
    if (sep != std::string::npos)
      name = name.substr(sep + 3);
    if (!name.empty() && name[0] == '/')
      return exists(name) ? name : std::string();
    for (const std::string &p : paths)
    {
      std::string candidate = p + "/" + name;
      if (exists(candidate))
        return candidate;
    }
    return std::string();
  });

  sdf::Root root;
  sdf::Errors errors = root.Load(_argv[1], config);
  root.ResolveAutoInertials(errors, config);

  std::printf("{\"file\":");
  printString(_argv[1]);
  std::printf(",\"errors\":[");
  for (size_t i = 0; i < errors.size(); ++i)
  {
    std::printf("%s{\"code\":%d,\"message\":", i ? "," : "",
                static_cast<int>(errors[i].Code()));
    printString(errors[i].Message());
    std::putchar('}');
  }
  std::printf("],\"links\":[");

  // A file holding a model: its links in the frame its own <pose> is
  // written in (Ballast's convention for a top model), its placement
  // frame taken into account.
  if (root.Model() != nullptr)
  {
    gz::math::Pose3d X_RM = root.Model()->RawPose();
    if (!root.Model()->SemanticPose().Resolve(X_RM).empty())
      X_RM = root.Model()->RawPose();
    printModel("", *root.Model(), X_RM);
  }
  for (uint64_t w = 0; w < root.WorldCount(); ++w)
  {
    const sdf::World *world = root.WorldByIndex(w);
    for (uint64_t i = 0; i < world->ModelCount(); ++i)
    {
      const sdf::Model *model = world->ModelByIndex(i);
      gz::math::Pose3d X_WM;
      model->SemanticPose().Resolve(X_WM);
      printModel("", *model, X_WM);
    }
  }
  std::printf("]}\n");
  return 0;
}
