// A stand-in for Unity's UnityEngine.AndroidJNIModule.dll holding exactly the members relief's
// package (bindings/unity) uses from it, so tests/unity_compile.rs can compile each of the
// package's assemblies against the modules Unity gives it. Each member has the signature its
// page in Unity's Scripting Reference gives (Unity 2021.3 LTS and later; pages at
// https://docs.unity3d.com/ScriptReference/<page>, cited per member); bodies throw, nothing
// here runs. Why these types are in this module (UnityCsReference, 2021.3 branch; code under
// Modules/<X>/ is built into UnityEngine.<X>Module.dll): Modules/AndroidJNI/AndroidJava.cs
// (AndroidJavaObject, AndroidJavaClass, AndroidJavaException) and AndroidJNI.bindings.cs
// (AndroidJNI). The classes exist on every platform and fail at run time off Android, so the
// package calls them under `#if UNITY_ANDROID && !UNITY_EDITOR` only.
using System;

namespace UnityEngine
{
    static class Stub { internal static Exception Never() { return new NotSupportedException("UnityEngine stand-in: compile only"); } }

    // ScriptReference/AndroidJavaObject.html
    public class AndroidJavaObject : IDisposable
    {
        // AndroidJavaObject.Call.html: public ReturnType Call<ReturnType>(string methodName, params object[] args);
        public ReturnType Call<ReturnType>(string methodName, params object[] args) { throw Stub.Never(); }
        // AndroidJavaObject.Call.html: public void Call(string methodName, params object[] args);
        public void Call(string methodName, params object[] args) { throw Stub.Never(); }
        // AndroidJavaObject.GetStatic.html: public FieldType GetStatic<FieldType>(string fieldName);
        public FieldType GetStatic<FieldType>(string fieldName) { throw Stub.Never(); }
        // AndroidJavaObject.Dispose.html
        public void Dispose() { throw Stub.Never(); }
    }

    // ScriptReference/AndroidJavaClass.html, AndroidJavaClass-ctor.html
    public class AndroidJavaClass : AndroidJavaObject
    {
        public AndroidJavaClass(string className) { throw Stub.Never(); }
    }

    // ScriptReference/AndroidJNI.html
    public static class AndroidJNI
    {
        // AndroidJNI.AttachCurrentThread.html: public static int AttachCurrentThread();
        public static int AttachCurrentThread() { throw Stub.Never(); }
        // AndroidJNI.DetachCurrentThread.html: public static int DetachCurrentThread();
        public static int DetachCurrentThread() { throw Stub.Never(); }
    }

    // ScriptReference/AndroidJavaException.html (Message: the Java throwable's toString(),
    // "java.io.FileNotFoundException: ...")
    public sealed class AndroidJavaException : Exception { }
}
