// Stand-in for HDRP's Runtime/ShaderLibrary/ShaderVariables.hlsl: camera-relative matrices,
// the directional lights (ShaderVariablesLightLoop.hlsl, LightDefinition.cs.hlsl: the two
// fields the far ground reads), the exposure, and the transforms (via ShaderVariablesFunctions
// .hlsl). As in HDRP, unity_ObjectToWorld cannot be used directly.
// Source: Unity-Technologies/Graphics, Packages/com.unity.render-pipelines.high-definition/Runtime/.
#ifndef UNITY_SHADER_VARIABLES_INCLUDED
#define UNITY_SHADER_VARIABLES_INCLUDED
cbuffer ShaderVariablesGlobal
{
    float4x4 _ViewProjMatrix;
    uint _DirectionalLightCount;
    float _ProbeExposureScale;
};
cbuffer UnityPerDraw
{
    float4x4 unity_ObjectToWorld;
    float4x4 unity_WorldToObject;
};
float4x4 GetRawUnityObjectToWorld() { return unity_ObjectToWorld; }
float4x4 GetRawUnityWorldToObject() { return unity_WorldToObject; }
#define UNITY_MATRIX_M GetRawUnityObjectToWorld()
#define UNITY_MATRIX_I_M GetRawUnityWorldToObject()
#define UNITY_MATRIX_VP _ViewProjMatrix
struct DirectionalLightData
{
    float3 positionRWS;
    uint lightLayers;
    float3 forward;
    int cookieMode;
    float3 color;
};
StructuredBuffer<DirectionalLightData> _DirectionalLightDatas;
TEXTURE2D(_ExposureTexture);
float GetCurrentExposureMultiplier()
{
    return LOAD_TEXTURE2D(_ExposureTexture, int2(0, 0)).x * _ProbeExposureScale;
}
#include "Packages/com.unity.render-pipelines.core/ShaderLibrary/SpaceTransforms.hlsl"
#define unity_ObjectToWorld Use_Macro_UNITY_MATRIX_M_instead_of_unity_ObjectToWorld
#define unity_WorldToObject Use_Macro_UNITY_MATRIX_I_M_instead_of_unity_WorldToObject
#endif
