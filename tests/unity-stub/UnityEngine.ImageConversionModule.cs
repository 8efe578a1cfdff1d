// A stand-in for Unity's UnityEngine.ImageConversionModule.dll holding exactly the members relief's
// package (bindings/unity) uses from it, so tests/unity_compile.rs can compile each of the
// package's assemblies against the modules Unity gives it. Each member has the signature its page
// in Unity's Scripting Reference gives (Unity 2021.3 LTS and later; pages at
// https://docs.unity3d.com/ScriptReference/<page>, cited per member); bodies throw, nothing here
// runs. Why this type is in this module (UnityCsReference, 2021.3 branch):
//   Modules/ImageConversion/ScriptBindings/ImageConversion.bindings.cs: ImageConversion
using System;

namespace UnityEngine
{
    static class Stub { internal static Exception Never() { return new NotSupportedException("UnityEngine stand-in: compile only"); } }

    // ScriptReference/ImageConversion.html, ImageConversion.LoadImage.html: public static bool LoadImage(this Texture2D tex, byte[] data);
    public static class ImageConversion
    {
        public static bool LoadImage(this Texture2D tex, byte[] data) { throw Stub.Never(); }
    }
}
