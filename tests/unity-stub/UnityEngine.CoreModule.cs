// A stand-in for Unity's UnityEngine.CoreModule.dll holding exactly the members relief's package
// (bindings/unity) uses from it, so tests/unity_compile.rs can compile each of the package's
// assemblies against the modules Unity gives it. Each member has the signature its page in
// Unity's Scripting Reference gives (Unity 2021.3 LTS and later; pages at
// https://docs.unity3d.com/ScriptReference/<page>, cited per member); bodies throw, nothing
// here runs. Why these types are in this module (UnityCsReference, 2021.3 branch; code under
// Modules/<X>/ is built into UnityEngine.<X>Module.dll, Runtime/Export/ into CoreModule):
//   Runtime/Export/Scripting/: Object (UnityEngineObject.bindings.cs), Component, Behaviour,
//     MonoBehaviour, GameObject; AddComponentMenu, DisallowMultipleComponent (Attributes.cs);
//     AOT.MonoPInvokeCallbackAttribute (AttributeHelperEngine.cs)
//   Runtime/Transform/ScriptBindings/Transform.bindings.cs: Transform
//   Runtime/Export/Math/: Vector2, Vector3, Vector4, Quaternion; Runtime/Export/Geometry/: Rect, Bounds
//   Runtime/Export/Scripting/ScriptableObject.bindings.cs: ScriptableObject
//   Runtime/Export/Graphics/GraphicsSettings.bindings.cs, Runtime/Export/RenderPipeline/
//     RenderPipelineAsset.cs: Rendering.GraphicsSettings, Rendering.RenderPipelineAsset
//   Runtime/Export/iOS/iOSDevice.bindings.cs: iOS.Device
//   Runtime/Export/Graphics/: Mesh, MeshFilter, Renderer, MeshRenderer, Texture, Texture2D,
//     and in GraphicsEnums.cs TextureFormat, TextureWrapMode, FilterMode,
//     Rendering.IndexFormat, Rendering.MeshUpdateFlags
//   Runtime/Export/Shaders/: Shader, Material; Runtime/Export/Camera/Camera.bindings.cs: Camera
//   Runtime/Export/Debug/Debug.bindings.cs, Application/Application.bindings.cs,
//     Time/Time.bindings.cs: Debug, Application, Time
//   Runtime/Export/Input/KeyCode.cs: KeyCode (Input itself is in InputLegacyModule)
//   Runtime/Export/Serialization/Serialization.cs: SerializeField;
//     Runtime/Export/PropertyDrawer/PropertyAttribute.cs: Tooltip, Header, Range
//   Runtime/Export/Math/Matrix4x4.cs: Matrix4x4; Runtime/Export/Math/Color.cs: Color
//   Runtime/Export/Graphics/Graphics.cs: Graphics.RenderMeshInstanced, RenderParams;
//     GraphicsEnums.cs: Rendering.ShadowCastingMode; Runtime/Export/Device/SystemInfo.cs: SystemInfo
//   Runtime/Export/BaseClass.cs: PrimitiveType; Runtime/Export/Scripting/GameObject.bindings.cs:
//     GameObject.CreatePrimitive
//   Runtime/Export/NativeArray/NativeArray.cs: Unity.Collections.NativeArray<T>,
//     NativeArrayOptions, Unity.Collections.LowLevel.Unsafe.NativeArrayUnsafeUtility;
//     Runtime/Export/Collections/NativeCollectionEnums.bindings.cs: Allocator;
//     Runtime/Export/Jobs/AtomicSafetyHandle.bindings.cs: AtomicSafetyHandle
//   Runtime/Export/Graphics/GraphicsRenderers.bindings.cs: Renderer.sharedMaterials
// The module is compiled with -unsafe: NativeArrayUnsafeUtility's members take and give void*,
// as Unity's do. RenderMeshInstanced's `where T : unmanaged` (C# 7.3) is written
// `where T : struct` here, all mcs -langversion:7.2 takes; the T the package passes
// (Matrix4x4) is both.
#pragma warning disable 0660, 0661 // Object defines == without Equals/GetHashCode, as Unity's does
using System;

namespace UnityEngine.Rendering
{
    // ScriptReference/Rendering.MeshUpdateFlags.html
    [Flags] public enum MeshUpdateFlags { Default = 0, DontValidateIndices = 1, DontResetBoneBounds = 2, DontNotifyMeshUsers = 4, DontRecalculateBounds = 8 }
    // ScriptReference/Rendering.IndexFormat.html
    public enum IndexFormat { UInt16 = 0, UInt32 = 1 }
    // ScriptReference/Rendering.ShadowCastingMode.html
    public enum ShadowCastingMode { Off = 0, On = 1, TwoSided = 2, ShadowsOnly = 3 }

    // ScriptReference/Rendering.GraphicsSettings.html: GraphicsSettings-currentRenderPipeline.html
    public sealed class GraphicsSettings : UnityEngine.Object
    {
        public static RenderPipelineAsset currentRenderPipeline { get { throw UnityEngine.Stub.Never(); } }
    }

    // ScriptReference/Rendering.RenderPipelineAsset.html
    public abstract class RenderPipelineAsset : UnityEngine.ScriptableObject
    {
        // Rendering.RenderPipelineAsset-defaultTerrainMaterial.html
        public virtual UnityEngine.Material defaultTerrainMaterial { get { throw UnityEngine.Stub.Never(); } }
        // Rendering.RenderPipelineAsset-defaultMaterial.html
        public virtual UnityEngine.Material defaultMaterial { get { throw UnityEngine.Stub.Never(); } }
    }
}

namespace Unity.Collections
{
    // ScriptReference/Unity.Collections.Allocator.html
    public enum Allocator { Invalid = 0, None = 1, Temp = 2, TempJob = 3, Persistent = 4, AudioKernel = 5 }
    // ScriptReference/Unity.Collections.NativeArrayOptions.html
    public enum NativeArrayOptions { UninitializedMemory = 0, ClearMemory = 1 }

    // ScriptReference/Unity.Collections.NativeArray_1.html
    public struct NativeArray<T> : IDisposable where T : struct
    {
        // Unity.Collections.NativeArray_1-ctor.html: public NativeArray(int length, Allocator allocator, NativeArrayOptions options = NativeArrayOptions.ClearMemory);
        public NativeArray(int length, Allocator allocator, NativeArrayOptions options = NativeArrayOptions.ClearMemory) { throw UnityEngine.Stub.Never(); }
        // Unity.Collections.NativeArray_1-Length.html, Unity.Collections.NativeArray_1-IsCreated.html
        public int Length { get { throw UnityEngine.Stub.Never(); } }
        public bool IsCreated { get { throw UnityEngine.Stub.Never(); } }
        // Unity.Collections.NativeArray_1.Dispose.html: public void Dispose();
        public void Dispose() { throw UnityEngine.Stub.Never(); }
    }
}

namespace Unity.Collections.LowLevel.Unsafe
{
    // ScriptReference/Unity.Collections.LowLevel.Unsafe.AtomicSafetyHandle.html
    public struct AtomicSafetyHandle
    {
        // Unity.Collections.LowLevel.Unsafe.AtomicSafetyHandle.Create.html: public static AtomicSafetyHandle Create();
        public static AtomicSafetyHandle Create() { throw UnityEngine.Stub.Never(); }
        // Unity.Collections.LowLevel.Unsafe.AtomicSafetyHandle.Release.html: public static void Release(AtomicSafetyHandle handle);
        public static void Release(AtomicSafetyHandle handle) { throw UnityEngine.Stub.Never(); }
    }

    // ScriptReference/Unity.Collections.LowLevel.Unsafe.NativeArrayUnsafeUtility.html
    public static class NativeArrayUnsafeUtility
    {
        // Unity.Collections.LowLevel.Unsafe.NativeArrayUnsafeUtility.ConvertExistingDataToNativeArray.html:
        // public static NativeArray<T> ConvertExistingDataToNativeArray(void* dataPointer, int length, Allocator allocator);
        public static unsafe NativeArray<T> ConvertExistingDataToNativeArray<T>(void* dataPointer, int length, Allocator allocator) where T : struct { throw UnityEngine.Stub.Never(); }
        // Unity.Collections.LowLevel.Unsafe.NativeArrayUnsafeUtility.SetAtomicSafetyHandle.html:
        // public static void SetAtomicSafetyHandle(ref NativeArray<T> array, AtomicSafetyHandle safety);
        public static void SetAtomicSafetyHandle<T>(ref NativeArray<T> array, AtomicSafetyHandle safety) where T : struct { throw UnityEngine.Stub.Never(); }
        // Unity.Collections.LowLevel.Unsafe.NativeArrayUnsafeUtility.GetUnsafePtr.html:
        // public static void* GetUnsafePtr(NativeArray<T> nativeArray) (an extension method)
        public static unsafe void* GetUnsafePtr<T>(this NativeArray<T> nativeArray) where T : struct { throw UnityEngine.Stub.Never(); }
    }
}

namespace UnityEngine.iOS
{
    // ScriptReference/iOS.Device.html, iOS.Device.SetNoBackupFlag.html: public static void SetNoBackupFlag(string path);
    public sealed class Device
    {
        public static void SetNoBackupFlag(string path) { throw UnityEngine.Stub.Never(); }
    }
}

namespace UnityEngine
{
    static class Stub { internal static Exception Never() { return new NotSupportedException("UnityEngine stand-in: compile only"); } }

    // ScriptReference/Object.html
    public class Object
    {
        // Object.GetInstanceID.html
        public int GetInstanceID() { throw Stub.Never(); }
        // Object.name.html
        public string name { get { throw Stub.Never(); } set { throw Stub.Never(); } }
        // Object.Destroy.html: public static void Destroy(Object obj, float t = 0.0F);
        public static void Destroy(Object obj, float t = 0.0F) { throw Stub.Never(); }
        // Object.DestroyImmediate.html: public static void DestroyImmediate(Object obj, bool allowDestroyingAssets = false);
        public static void DestroyImmediate(Object obj, bool allowDestroyingAssets = false) { throw Stub.Never(); }
        // Object-operator_eq.html, Object-operator_ne.html, Object-operator_Object.html
        public static bool operator ==(Object x, Object y) { throw Stub.Never(); }
        public static bool operator !=(Object x, Object y) { throw Stub.Never(); }
        public static implicit operator bool(Object exists) { throw Stub.Never(); }
    }

    // ScriptReference/Component.html
    public class Component : Object
    {
        // Component-transform.html, Component-gameObject.html
        public Transform transform { get { throw Stub.Never(); } }
        public GameObject gameObject { get { throw Stub.Never(); } }
        // Component.GetComponent.html: public T GetComponent<T>();
        public T GetComponent<T>() { throw Stub.Never(); }
    }

    // ScriptReference/Behaviour.html
    public class Behaviour : Component
    {
        // Behaviour-enabled.html
        public bool enabled { get { throw Stub.Never(); } set { throw Stub.Never(); } }
    }

    // ScriptReference/MonoBehaviour.html
    public class MonoBehaviour : Behaviour { }

    // ScriptReference/GameObject.html
    public sealed class GameObject : Object
    {
        // GameObject-ctor.html: public GameObject(string name);
        public GameObject(string name) { throw Stub.Never(); }
        // GameObject-transform.html
        public Transform transform { get { throw Stub.Never(); } }
        // GameObject.SetActive.html: public void SetActive(bool value);
        public void SetActive(bool value) { throw Stub.Never(); }
        // GameObject-activeSelf.html
        public bool activeSelf { get { throw Stub.Never(); } }
        // GameObject.AddComponent.html: public T AddComponent<T>() where T : Component;
        public T AddComponent<T>() where T : Component { throw Stub.Never(); }
        // GameObject.GetComponent.html: public T GetComponent<T>();
        public T GetComponent<T>() { throw Stub.Never(); }
        // GameObject-layer.html
        public int layer { get { throw Stub.Never(); } set { throw Stub.Never(); } }
        // GameObject.CreatePrimitive.html: public static GameObject CreatePrimitive(PrimitiveType type);
        public static GameObject CreatePrimitive(PrimitiveType type) { throw Stub.Never(); }
    }

    // ScriptReference/PrimitiveType.html
    public enum PrimitiveType { Sphere = 0, Capsule = 1, Cylinder = 2, Cube = 3, Plane = 4, Quad = 5 }

    // ScriptReference/Transform.html
    public class Transform : Component
    {
        // Transform-position.html, Transform-localPosition.html
        public Vector3 position { get { throw Stub.Never(); } set { throw Stub.Never(); } }
        public Vector3 localPosition { get { throw Stub.Never(); } set { throw Stub.Never(); } }
        // Transform-localRotation.html
        public Quaternion localRotation { get { throw Stub.Never(); } set { throw Stub.Never(); } }
        // Transform.TransformPoint.html: public Vector3 TransformPoint(Vector3 position);
        public Vector3 TransformPoint(Vector3 position) { throw Stub.Never(); }
        // Transform.InverseTransformPoint.html: public Vector3 InverseTransformPoint(Vector3 position);
        public Vector3 InverseTransformPoint(Vector3 position) { throw Stub.Never(); }
        // Transform.TransformDirection.html: public Vector3 TransformDirection(Vector3 direction);
        public Vector3 TransformDirection(Vector3 direction) { throw Stub.Never(); }
        // Transform-forward.html, Transform-right.html
        public Vector3 forward { get { throw Stub.Never(); } set { throw Stub.Never(); } }
        public Vector3 right { get { throw Stub.Never(); } set { throw Stub.Never(); } }
        // Transform.SetParent.html: public void SetParent(Transform parent, bool worldPositionStays);
        public void SetParent(Transform parent, bool worldPositionStays) { throw Stub.Never(); }
        // Transform.SetPositionAndRotation.html
        public void SetPositionAndRotation(Vector3 position, Quaternion rotation) { throw Stub.Never(); }
        // Transform-localToWorldMatrix.html
        public Matrix4x4 localToWorldMatrix { get { throw Stub.Never(); } }
    }

    // ScriptReference/Matrix4x4.html: its fields m00 … m33 (row, column), laid out column by
    // column (m00, m10, m20, m30, m01, …) as Unity's are
    public struct Matrix4x4
    {
        public float m00, m10, m20, m30;
        public float m01, m11, m21, m31;
        public float m02, m12, m22, m32;
        public float m03, m13, m23, m33;
        // Matrix4x4.Translate.html: public static Matrix4x4 Translate(Vector3 vector);
        public static Matrix4x4 Translate(Vector3 vector) { throw Stub.Never(); }
        // Matrix4x4.MultiplyPoint3x4.html: public Vector3 MultiplyPoint3x4(Vector3 point);
        public Vector3 MultiplyPoint3x4(Vector3 point) { throw Stub.Never(); }
        // Matrix4x4-operator_multiply.html: public static Matrix4x4 operator *(Matrix4x4 lhs, Matrix4x4 rhs);
        public static Matrix4x4 operator *(Matrix4x4 lhs, Matrix4x4 rhs) { throw Stub.Never(); }
    }

    // ScriptReference/Vector2.html
    public struct Vector2
    {
        public float x, y;
        // Vector2-ctor.html
        public Vector2(float x, float y) { this.x = x; this.y = y; }
    }

    // ScriptReference/ScriptableObject.html
    public class ScriptableObject : Object { }

    // ScriptReference/Vector3.html
    public struct Vector3
    {
        public float x, y, z;
        // Vector3-ctor.html
        public Vector3(float x, float y, float z) { this.x = x; this.y = y; this.z = z; }
        // Vector3-zero.html, Vector3-up.html
        public static Vector3 zero { get { throw Stub.Never(); } }
        public static Vector3 up { get { throw Stub.Never(); } }
        // Vector3-magnitude.html, Vector3-normalized.html
        public float magnitude { get { throw Stub.Never(); } }
        public Vector3 normalized { get { throw Stub.Never(); } }
        // Vector3.Dot.html, Vector3.Cross.html, Vector3.ProjectOnPlane.html
        public static float Dot(Vector3 lhs, Vector3 rhs) { throw Stub.Never(); }
        public static Vector3 Cross(Vector3 lhs, Vector3 rhs) { throw Stub.Never(); }
        public static Vector3 ProjectOnPlane(Vector3 vector, Vector3 planeNormal) { throw Stub.Never(); }
        // Vector3-operator_add.html, _subtract, _multiply
        public static Vector3 operator +(Vector3 a, Vector3 b) { throw Stub.Never(); }
        public static Vector3 operator -(Vector3 a, Vector3 b) { throw Stub.Never(); }
        public static Vector3 operator *(Vector3 a, float d) { throw Stub.Never(); }
    }

    // ScriptReference/Vector4.html, Vector4-ctor.html
    public struct Vector4
    {
        public float x, y, z, w;
        public Vector4(float x, float y, float z, float w) { this.x = x; this.y = y; this.z = z; this.w = w; }
    }

    // ScriptReference/Quaternion.html
    public struct Quaternion
    {
        public float x, y, z, w;
        // Quaternion-ctor.html: public Quaternion(float x, float y, float z, float w);
        public Quaternion(float x, float y, float z, float w) { this.x = x; this.y = y; this.z = z; this.w = w; }
        // Quaternion.LookRotation.html: public static Quaternion LookRotation(Vector3 forward, Vector3 upwards = Vector3.up);
        public static Quaternion LookRotation(Vector3 forward, Vector3 upwards) { throw Stub.Never(); }
        // Quaternion.Euler.html: public static Quaternion Euler(float x, float y, float z);
        public static Quaternion Euler(float x, float y, float z) { throw Stub.Never(); }
        // Quaternion.AngleAxis.html: public static Quaternion AngleAxis(float angle, Vector3 axis);
        public static Quaternion AngleAxis(float angle, Vector3 axis) { throw Stub.Never(); }
        // Quaternion-operator_multiply.html: public static Vector3 operator *(Quaternion rotation, Vector3 point);
        public static Vector3 operator *(Quaternion rotation, Vector3 point) { throw Stub.Never(); }
    }

    // ScriptReference/Rect.html, Rect-ctor.html
    public struct Rect
    {
        public Rect(float x, float y, float width, float height) { throw Stub.Never(); }
        // Rect-width.html
        public float width { get { throw Stub.Never(); } set { throw Stub.Never(); } }
    }

    // ScriptReference/Bounds.html, Bounds-ctor.html
    public struct Bounds
    {
        public Bounds(Vector3 center, Vector3 size) { throw Stub.Never(); }
        // Bounds-center.html, Bounds-extents.html
        public Vector3 center { get { throw Stub.Never(); } set { throw Stub.Never(); } }
        public Vector3 extents { get { throw Stub.Never(); } set { throw Stub.Never(); } }
    }

    // ScriptReference/Color.html
    public struct Color
    {
        public float r, g, b, a;
        // Color-ctor.html: public Color(float r, float g, float b);
        public Color(float r, float g, float b) { this.r = r; this.g = g; this.b = b; a = 1f; }
    }

    // ScriptReference/Mesh.html
    public sealed class Mesh : Object
    {
        // Mesh-ctor.html
        public Mesh() { throw Stub.Never(); }
        // Mesh.SetVertices.html: public void SetVertices(Vector3[] inVertices, int start, int length, Rendering.MeshUpdateFlags flags = MeshUpdateFlags.Default);
        public void SetVertices(Vector3[] inVertices, int start, int length, Rendering.MeshUpdateFlags flags = Rendering.MeshUpdateFlags.Default) { throw Stub.Never(); }
        // Mesh.SetTriangles.html: public void SetTriangles(int[] triangles, int submesh, bool calculateBounds = true, int baseVertex = 0);
        public void SetTriangles(int[] triangles, int submesh, bool calculateBounds = true, int baseVertex = 0) { throw Stub.Never(); }
        // Mesh.MarkDynamic.html
        public void MarkDynamic() { throw Stub.Never(); }
        // Mesh-indexFormat.html
        public Rendering.IndexFormat indexFormat { get { throw Stub.Never(); } set { throw Stub.Never(); } }
        // Mesh-bounds.html
        public Bounds bounds { get { throw Stub.Never(); } set { throw Stub.Never(); } }
        // Mesh-subMeshCount.html
        public int subMeshCount { get { throw Stub.Never(); } set { throw Stub.Never(); } }
        // Mesh.RecalculateNormals.html: public void RecalculateNormals();
        public void RecalculateNormals() { throw Stub.Never(); }
    }

    // ScriptReference/MeshFilter.html, MeshFilter-sharedMesh.html
    public sealed class MeshFilter : Component
    {
        public Mesh sharedMesh { get { throw Stub.Never(); } set { throw Stub.Never(); } }
    }

    // ScriptReference/Renderer.html, Renderer-sharedMaterial.html; MeshRenderer.html
    public class Renderer : Component
    {
        public Material sharedMaterial { get { throw Stub.Never(); } set { throw Stub.Never(); } }
        // Renderer-sharedMaterials.html
        public Material[] sharedMaterials { get { throw Stub.Never(); } set { throw Stub.Never(); } }
    }
    // ScriptReference/MeshRenderer.html
    public sealed class MeshRenderer : Renderer { }

    // ScriptReference/TextureFormat.html (RGBA32 = 4, RFloat = 18), TextureWrapMode.html, FilterMode.html
    public enum TextureFormat { RGBA32 = 4, RFloat = 18 }
    public enum TextureWrapMode { Repeat = 0, Clamp = 1 }
    public enum FilterMode { Point = 0, Bilinear = 1, Trilinear = 2 }

    // ScriptReference/Texture.html, Texture-wrapMode.html, Texture-filterMode.html
    public class Texture : Object
    {
        // Texture-width.html, Texture-height.html
        public virtual int width { get { throw Stub.Never(); } set { throw Stub.Never(); } }
        public virtual int height { get { throw Stub.Never(); } set { throw Stub.Never(); } }
        // Texture-wrapMode.html, Texture-filterMode.html
        public TextureWrapMode wrapMode { get { throw Stub.Never(); } set { throw Stub.Never(); } }
        public FilterMode filterMode { get { throw Stub.Never(); } set { throw Stub.Never(); } }
    }

    // ScriptReference/Texture2D.html
    public sealed class Texture2D : Texture
    {
        // Texture2D-ctor.html: public Texture2D(int width, int height);
        public Texture2D(int width, int height) { throw Stub.Never(); }
        // Texture2D-ctor.html: public Texture2D(int width, int height, TextureFormat textureFormat, bool mipChain);
        public Texture2D(int width, int height, TextureFormat textureFormat, bool mipChain) { throw Stub.Never(); }
        // Texture2D.LoadRawTextureData.html: public void LoadRawTextureData(IntPtr data, int size);
        public void LoadRawTextureData(IntPtr data, int size) { throw Stub.Never(); }
        // Texture2D-format.html
        public TextureFormat format { get { throw Stub.Never(); } }
        // Texture2D.SetPixelData.html: public void SetPixelData<T>(T[] data, int mipLevel, int sourceDataStartIndex = 0);
        public void SetPixelData<T>(T[] data, int mipLevel, int sourceDataStartIndex = 0) { throw Stub.Never(); }
        // Texture2D.Apply.html: public void Apply(bool updateMipmaps = true, bool makeNoLongerReadable = false);
        public void Apply(bool updateMipmaps = true, bool makeNoLongerReadable = false) { throw Stub.Never(); }
    }

    // ScriptReference/Shader.html, Shader.PropertyToID.html
    public sealed class Shader : Object
    {
        public static int PropertyToID(string name) { throw Stub.Never(); }
    }

    // ScriptReference/Material.html
    public class Material : Object
    {
        // Material-ctor.html: public Material(Material source);
        public Material(Material source) { throw Stub.Never(); }
        // Material.SetTexture.html, Material.SetVector.html, Material.SetFloat.html, Material.SetVectorArray.html
        public void SetTexture(int nameID, Texture value) { throw Stub.Never(); }
        public void SetVector(int nameID, Vector4 value) { throw Stub.Never(); }
        public void SetFloat(int nameID, float value) { throw Stub.Never(); }
        public void SetVectorArray(int nameID, Vector4[] values) { throw Stub.Never(); }
        // Material-enableInstancing.html, Material-color.html
        public bool enableInstancing { get { throw Stub.Never(); } set { throw Stub.Never(); } }
        public Color color { get { throw Stub.Never(); } set { throw Stub.Never(); } }
    }

    // ScriptReference/RenderParams.html (a struct: its properties are set on a local copy)
    public struct RenderParams
    {
        // RenderParams-ctor.html: public RenderParams(Material mat);
        public RenderParams(Material mat) { throw Stub.Never(); }
        // RenderParams-worldBounds.html, RenderParams-shadowCastingMode.html,
        // RenderParams-receiveShadows.html, RenderParams-layer.html
        public Bounds worldBounds { get { throw Stub.Never(); } set { throw Stub.Never(); } }
        public Rendering.ShadowCastingMode shadowCastingMode { get { throw Stub.Never(); } set { throw Stub.Never(); } }
        public bool receiveShadows { get { throw Stub.Never(); } set { throw Stub.Never(); } }
        public int layer { get { throw Stub.Never(); } set { throw Stub.Never(); } }
    }

    // ScriptReference/Graphics.html
    public sealed class Graphics
    {
        // Graphics.RenderMeshInstanced.html: public static void RenderMeshInstanced(RenderParams rparams, Mesh mesh, int submeshIndex, NativeArray<T> instanceData, int instanceCount = -1, int startInstance = 0);
        // (RenderParams by value, unlike the array overloads' `in`: 2021.3 through Unity 6)
        public static void RenderMeshInstanced<T>(RenderParams rparams, Mesh mesh, int submeshIndex, Unity.Collections.NativeArray<T> instanceData, int instanceCount = -1, int startInstance = 0) where T : struct { throw Stub.Never(); }
    }

    // ScriptReference/SystemInfo.html, SystemInfo-supportsInstancing.html
    public sealed class SystemInfo
    {
        public static bool supportsInstancing { get { throw Stub.Never(); } }
    }

    // ScriptReference/Camera.html, Camera-main.html
    public sealed class Camera : Behaviour
    {
        public static Camera main { get { throw Stub.Never(); } }
    }

    // ScriptReference/Debug.html: Debug.LogError.html, Debug.LogWarning.html, Debug.Log.html
    public static class Debug
    {
        public static void Log(object message, Object context) { throw Stub.Never(); }
        public static void LogWarning(object message, Object context) { throw Stub.Never(); }
        public static void LogError(object message, Object context) { throw Stub.Never(); }
    }

    // ScriptReference/Application.html, Application-streamingAssetsPath.html, Application-persistentDataPath.html
    public static class Application
    {
        public static string streamingAssetsPath { get { throw Stub.Never(); } }
        public static string persistentDataPath { get { throw Stub.Never(); } }
    }

    // ScriptReference/Time.html, Time-deltaTime.html
    public static class Time
    {
        public static float deltaTime { get { throw Stub.Never(); } }
    }

    // ScriptReference/KeyCode.html (values as Unity numbers them)
    public enum KeyCode { Space = 32, E = 101, Q = 113, LeftShift = 304, LeftControl = 306 }

    // ScriptReference/SerializeField.html, TooltipAttribute.html, HeaderAttribute.html,
    // RangeAttribute.html, AddComponentMenu.html, DisallowMultipleComponent.html
    [AttributeUsage(AttributeTargets.Field)] public sealed class SerializeField : Attribute { }
    [AttributeUsage(AttributeTargets.Field)] public class TooltipAttribute : Attribute { public TooltipAttribute(string tooltip) { } }
    [AttributeUsage(AttributeTargets.Field, AllowMultiple = true)] public class HeaderAttribute : Attribute { public HeaderAttribute(string header) { } }
    [AttributeUsage(AttributeTargets.Field)] public sealed class RangeAttribute : Attribute { public RangeAttribute(float min, float max) { } }
    [AttributeUsage(AttributeTargets.Class)] public sealed class AddComponentMenu : Attribute { public AddComponentMenu(string menuName) { } }
    [AttributeUsage(AttributeTargets.Class)] public sealed class DisallowMultipleComponent : Attribute { }

}

namespace AOT
{
    // Here so that a package assembly that also declares one (as relief's runtime must, since a
    // noEngineReferences assembly sees no UnityEngine) is compiled beside Unity's own.
    // ScriptReference/AOT.MonoPInvokeCallbackAttribute.html
    [AttributeUsage(AttributeTargets.Method, AllowMultiple = true)]
    public class MonoPInvokeCallbackAttribute : Attribute { public MonoPInvokeCallbackAttribute(Type type) { } }
}
