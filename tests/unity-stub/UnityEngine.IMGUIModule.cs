// A stand-in for Unity's UnityEngine.IMGUIModule.dll holding exactly the members relief's package
// (bindings/unity) uses from it, so tests/unity_compile.rs can compile each of the package's
// assemblies against the modules Unity gives it. Each member has the signature its page in
// Unity's Scripting Reference gives (Unity 2021.3 LTS and later; pages at
// https://docs.unity3d.com/ScriptReference/<page>, cited per member); bodies throw, nothing
// here runs. Why these types are in this module (UnityCsReference, 2021.3 branch; code under
// Modules/<X>/ is built into UnityEngine.<X>Module.dll, Runtime/Export/ into CoreModule):
//   Modules/IMGUI/GUI.cs: GUI; GUILayout.cs: GUILayout; GUILayoutUtility.cs: GUILayoutUtility;
//   GUILayoutOption.cs: GUILayoutOption; GUIStyle.bindings.cs: GUIStyle
using System;

namespace UnityEngine
{
    static class Stub { internal static Exception Never() { return new NotSupportedException("UnityEngine stand-in: compile only"); } }

    // ScriptReference/GUI.html, GUI.Label.html: public static void Label(Rect position, string text);
    public static class GUI
    {
        public static void Label(Rect position, string text) { throw Stub.Never(); }
    }

    // ScriptReference/GUILayout.html, GUILayout.Button.html: public static bool Button(string text, params GUILayoutOption[] options);
    public static class GUILayout
    {
        public static bool Button(string text, params GUILayoutOption[] options) { throw Stub.Never(); }
    }

    // ScriptReference/GUILayoutUtility.html, GUILayoutUtility.GetRect.html: public static Rect GetRect(float width, float height, params GUILayoutOption[] options);
    public static class GUILayoutUtility
    {
        public static Rect GetRect(float width, float height, params GUILayoutOption[] options) { throw Stub.Never(); }
    }

    // ScriptReference/GUILayoutOption.html
    public sealed class GUILayoutOption { }

    // ScriptReference/GUIStyle.html
    public sealed class GUIStyle { }
}
