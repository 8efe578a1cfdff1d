// A stand-in for Unity's UnityEditor.dll holding exactly the members relief's package
// (bindings/unity/Editor) uses from it, so tests/unity_compile.rs can compile the editor assembly
// as Unity does (an editor-only asmdef gets UnityEditor.dll without naming it). Each member has
// the signature its page in Unity's Scripting Reference gives (Unity 2021.3 LTS and later; pages
// at https://docs.unity3d.com/ScriptReference/<page>, cited per member); bodies throw, nothing
// here runs. Sources (UnityCsReference, 2021.3 branch): Editor/Mono/EditorWindow.cs,
// MenuItem.cs, EditorApplication.cs, EditorGUI.cs (EditorGUILayout, EditorGUI),
// EditorGUIUtility.bindings.cs (MessageType), EditorStyles.cs, EditorUtility.bindings.cs,
// Inspector/CustomEditor.cs, Inspector/Editor.cs; Modules/AssetDatabase/Editor/ScriptBindings/
// AssetDatabase.bindings.cs.
using System;
using UnityEngine;

namespace UnityEditor
{
    static class Stub { internal static Exception Never() { return new NotSupportedException("UnityEditor stand-in: compile only"); } }

    // ScriptReference/EditorWindow.html
    public class EditorWindow : ScriptableObject
    {
        // EditorWindow.GetWindow.html: public static T GetWindow<T>(string title) where T : EditorWindow;
        public static T GetWindow<T>(string title) where T : EditorWindow { throw Stub.Never(); }
        // EditorWindow.Repaint.html, EditorWindow-position.html
        public void Repaint() { throw Stub.Never(); }
        public Rect position { get { throw Stub.Never(); } set { throw Stub.Never(); } }
    }

    // ScriptReference/MenuItem.html, MenuItem-ctor.html: public MenuItem(string itemName);
    [AttributeUsage(AttributeTargets.Method, AllowMultiple = true)]
    public sealed class MenuItem : Attribute
    {
        public MenuItem(string itemName) { }
    }

    // ScriptReference/EditorApplication.html, EditorApplication.CallbackFunction.html, EditorApplication-update.html
    public sealed class EditorApplication
    {
        public delegate void CallbackFunction();
        public static CallbackFunction update;
        // EditorApplication.LockReloadAssemblies.html, EditorApplication.UnlockReloadAssemblies.html
        public static void LockReloadAssemblies() { throw Stub.Never(); }
        public static void UnlockReloadAssemblies() { throw Stub.Never(); }
    }

    // ScriptReference/MessageType.html
    public enum MessageType { None = 0, Info = 1, Warning = 2, Error = 3 }

    // ScriptReference/EditorStyles.html, EditorStyles-boldLabel.html
    public sealed class EditorStyles
    {
        public static GUIStyle boldLabel { get { throw Stub.Never(); } }
    }

    // ScriptReference/EditorGUILayout.html
    public sealed class EditorGUILayout
    {
        // EditorGUILayout.BeginScrollView.html: public static Vector2 BeginScrollView(Vector2 scrollPosition, params GUILayoutOption[] options);
        public static Vector2 BeginScrollView(Vector2 scrollPosition, params GUILayoutOption[] options) { throw Stub.Never(); }
        // EditorGUILayout.EndScrollView.html
        public static void EndScrollView() { throw Stub.Never(); }
        // EditorGUILayout.LabelField.html: public static void LabelField(string label, GUIStyle style, params GUILayoutOption[] options);
        public static void LabelField(string label, GUIStyle style, params GUILayoutOption[] options) { throw Stub.Never(); }
        // EditorGUILayout.HelpBox.html: public static void HelpBox(string message, MessageType type);
        public static void HelpBox(string message, MessageType type) { throw Stub.Never(); }
        // EditorGUILayout.Popup.html: public static int Popup(string label, int selectedIndex, string[] displayedOptions, params GUILayoutOption[] options);
        public static int Popup(string label, int selectedIndex, string[] displayedOptions, params GUILayoutOption[] options) { throw Stub.Never(); }
        // EditorGUILayout.TextArea.html: public static string TextArea(string text, params GUILayoutOption[] options);
        public static string TextArea(string text, params GUILayoutOption[] options) { throw Stub.Never(); }
        // EditorGUILayout.TextField.html: public static string TextField(string label, string text, params GUILayoutOption[] options);
        public static string TextField(string label, string text, params GUILayoutOption[] options) { throw Stub.Never(); }
        // EditorGUILayout.IntField.html: public static int IntField(string label, int value, params GUILayoutOption[] options);
        public static int IntField(string label, int value, params GUILayoutOption[] options) { throw Stub.Never(); }
        // EditorGUILayout.FloatField.html: public static float FloatField(string label, float value, params GUILayoutOption[] options);
        public static float FloatField(string label, float value, params GUILayoutOption[] options) { throw Stub.Never(); }
        // EditorGUILayout.Space.html
        public static void Space() { throw Stub.Never(); }
    }

    // ScriptReference/EditorGUI.html, EditorGUI.DrawPreviewTexture.html: public static void DrawPreviewTexture(Rect position, Texture image);
    public sealed class EditorGUI
    {
        public static void DrawPreviewTexture(Rect position, Texture image) { throw Stub.Never(); }
    }

    // ScriptReference/EditorUtility.html
    public sealed class EditorUtility
    {
        // EditorUtility.OpenFilePanel.html: public static string OpenFilePanel(string title, string directory, string extension);
        public static string OpenFilePanel(string title, string directory, string extension) { throw Stub.Never(); }
        // EditorUtility.OpenFolderPanel.html: public static string OpenFolderPanel(string title, string folder, string defaultName);
        public static string OpenFolderPanel(string title, string folder, string defaultName) { throw Stub.Never(); }
    }

    // ScriptReference/AssetDatabase.html, AssetDatabase.Refresh.html
    public sealed class AssetDatabase
    {
        public static void Refresh() { throw Stub.Never(); }
    }

    // ScriptReference/CustomEditor.html, CustomEditor-ctor.html: public CustomEditor(Type inspectedType, bool editorForChildClasses);
    public class CustomEditor : Attribute
    {
        public CustomEditor(Type inspectedType, bool editorForChildClasses) { }
    }

    // ScriptReference/Editor.html
    public class Editor : ScriptableObject
    {
        // Editor-target.html
        public UnityEngine.Object target { get { throw Stub.Never(); } set { throw Stub.Never(); } }
        // Editor.OnInspectorGUI.html
        public virtual void OnInspectorGUI() { throw Stub.Never(); }
        // Editor.DrawDefaultInspector.html
        public bool DrawDefaultInspector() { throw Stub.Never(); }
    }
}
